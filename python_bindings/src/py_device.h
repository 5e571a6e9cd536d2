// py_device.h - the device layer (runtime/device/Device.h) from Python: one
// binding for every device kind (CUDA, HIP, the CPU device), which the one
// host API (kjit/hostapi) is written over, and the device arrays the launch
// paths read without calling Python.
#pragma once

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "frontend/support/ErrorRecord.h"
#include "py_values.h"
#include "runtime/device/Device.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::py {

// The device of a kind ("cuda", "hip", "cpu"), made at first use and kept
// by the module's state.
device::Device &deviceOf(const std::string &kind);

// A stream argument (0, None, a kjit stream, a handle) as the device's
// handle.
device::Stream streamHandle(pybind11::handle s);

// A contiguous buffer of a Python object (NumPy array, bytes ...), held
// for its lifetime.
struct Buffer {
  Py_buffer view{};
  bool ok = false;
  Buffer(pybind11::handle o, bool writable) {
    if (PyObject_GetBuffer(o.ptr(), &view,
                           (writable ? PyBUF_WRITABLE : 0) | PyBUF_ANY_CONTIGUOUS) != 0)
      throw pybind11::error_already_set();
    ok = true;
  }
  ~Buffer() {
    if (ok) PyBuffer_Release(&view);
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

// Copies between a Python buffer and device memory; the GIL is released
// while they run. Copies to the host wait for the stream.
void copyIn(device::Device &d, uint64_t dst, pybind11::handle src, size_t n, device::Stream s);
void copyOut(device::Device &d, pybind11::handle dst, uint64_t src, size_t n, device::Stream s);

// Sets the Python exception for a device error (kjit.cuda.errors:
// CudaSupportError for a runtime that could not start, else
// CudaDriverError), or for what a kernel's thread recorded.
void setDeviceError(const device::Error &e);
void setKernelRaised(const abi::KernelRaised &e);

constexpr int kMaxDims = 9;

// A kjit device array (the C++ base of kjit.hostapi's DeviceNDArray): its
// memory, address, shape, strides and dtype, read by the launch paths.
struct DeviceArray {
  std::shared_ptr<device::Memory> mem;  // kjit memory, or null
  pybind11::object owner;               // what keeps external memory alive
  uint64_t ptr = 0;
  int nd = 0;
  int64_t shape[kMaxDims] = {0}, strides[kMaxDims] = {0};
  char code = 0;     // dtype (py_values.h)
  std::string dkey;  // the dtype's key: the code, or a record's spec; empty: none
  int64_t itemsize = 0;
  pybind11::object dtype;
  pybind11::object stream;  // the stream it was made on (0 when the default)
  bool readonly = false;

  void setup(pybind11::object memory, pybind11::object own, uint64_t p, pybind11::tuple shp,
             pybind11::tuple str, pybind11::object dt, pybind11::object st, bool ro);
  pybind11::tuple shapeTuple() const;
  pybind11::tuple stridesTuple() const;
  // 'C', 'F' or 'A', as NumPy's flags would say.
  char layout() const { return layoutOf(nd, shape, strides, itemsize); }
  static char layoutOf(int nd, const int64_t *shape, const int64_t *strides, int64_t itemsize);
  bool alive() const { return !mem || mem->alive(); }
  // A NumPy array over the memory (host-addressable memory only: the CPU
  // device's), kept alive by `self`.
  static pybind11::object hostView(pybind11::handle self);
};

// The DeviceArray of a kjit device array, or null.
DeviceArray *asDeviceArray(PyObject *o);

// DLPack device types, and a tensor taken from __dlpack__: (data pointer,
// shape, strides in bytes, dtype, (device type, id), owner).
enum : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLCUDAManaged = 13
};
pybind11::tuple importDlpack(pybind11::object obj, pybind11::object stream);

void define_device(pybind11::module_ &m);

}  // namespace kjit::py
