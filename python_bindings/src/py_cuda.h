// py_cuda.h - what the CUDA binding files share (py_cuda.cpp: the driver's
// start-up, devices, linking; py_cuda_launch.cpp: the launch path). Memory,
// copies, streams, events and device arrays are every device's
// (py_device.h).
#pragma once

#include <pybind11/pybind11.h>

#include "py_device.h"
#include "runtime/cuda/CudaDevice.h"

namespace kjit::py {

// The process's CUDA runtime, made at first use (or by the start-up thread).
cuda::Runtime &rt();
// The CUDA device layer over it (deviceOf("cuda")).
cuda::CudaDevice &cudaDevice();
// A stream argument (0, None, a kjit stream, a handle); the runtime learns
// of it (its memory pool's ordering).
cuda::CUstream streamOf(pybind11::handle s);

void define_cuda_launch(pybind11::module_ &m);

}  // namespace kjit::py
