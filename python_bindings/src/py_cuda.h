// py_cuda.h - what the CUDA binding files share (py_cuda.cpp: the runtime,
// memory, device arrays, interop; py_cuda_launch.cpp: the launch path).
#pragma once

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "py_values.h"
#include "runtime/cuda/CudaRuntime.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::py {

// The process's CUDA runtime, made at first use (or by the start-up thread).
cuda::Runtime &rt();
// A stream argument (0, None, a kjit stream, a handle); the runtime learns
// of it.
cuda::CUstream streamOf(pybind11::handle s);
void copyIn(uint64_t dst, pybind11::handle src, size_t n, cuda::CUstream s);
void copyOut(pybind11::handle dst, uint64_t src, size_t n, cuda::CUstream s);
void setCudaError(const cuda::Error &e);
// Sets the Python exception for what a kernel recorded (raiseKernelException).
void setKernelRaised(const cuda::KernelRaised &e);

// Memory as Python holds it (kjit.cuda's arrays keep one).
struct MemoryHandle {
  std::shared_ptr<cuda::Allocation> mem;
  uint64_t devicePointer() const { return mem->dptr; }
  uintptr_t hostPointer() const { return reinterpret_cast<uintptr_t>(mem->host); }
};

constexpr int kMaxDims = 9;

struct DeviceArray {
  std::shared_ptr<cuda::Allocation> mem;  // kjit memory, or null
  pybind11::object owner;                 // what keeps external memory alive
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
             pybind11::tuple str, pybind11::object dt, pybind11::object st, bool ro) {
    if (shp.size() != str.size() || shp.size() > size_t(kMaxDims))
      throw pybind11::value_error(
          fmt::format("device arrays have 0 to {} dimensions, with as many strides", kMaxDims));
    mem = memory.is_none() ? nullptr : memory.cast<MemoryHandle &>().mem;
    owner = std::move(own);
    ptr = p;
    nd = int(shp.size());
    for (int k = 0; k < nd; ++k) {
      shape[k] = shp[size_t(k)].cast<int64_t>();
      strides[k] = str[size_t(k)].cast<int64_t>();
    }
    pybind11::dtype d = pybind11::dtype::from_args(dt);
    code = jit::codeOfTypeNum(d.num());
    dkey = dtypeKeyOf(d.ptr());
    itemsize = d.itemsize();
    dtype = d;
    stream = std::move(st);
    readonly = ro;
  }
  pybind11::tuple shapeTuple() const {
    pybind11::tuple t(nd);
    for (int k = 0; k < nd; ++k) t[size_t(k)] = shape[k];
    return t;
  }
  pybind11::tuple stridesTuple() const {
    pybind11::tuple t(nd);
    for (int k = 0; k < nd; ++k) t[size_t(k)] = strides[k];
    return t;
  }
  // 'C', 'F' or 'A', as NumPy's flags would say.
  char layout() const { return layoutOf(nd, shape, strides, itemsize); }
  static char layoutOf(int nd, const int64_t *shape, const int64_t *strides, int64_t itemsize) {
    auto contiguous = [&](bool c) {
      int64_t expect = itemsize;
      for (int i = 0; i < nd; ++i) {
        int k = c ? nd - 1 - i : i;
        if (shape[k] == 0) return true;
        if (shape[k] != 1 && strides[k] != expect) return false;
        expect *= shape[k];
      }
      return true;
    };
    if (contiguous(true)) return 'C';
    if (contiguous(false)) return 'F';
    return 'A';
  }
  bool alive() const { return !mem || rt().valid(*mem); }
};

// The DeviceArray of a kjit device array, or null.
DeviceArray *asDeviceArray(PyObject *o);

// DLPack device types, and a tensor taken from __dlpack__: (data pointer,
// shape, strides in bytes, dtype, (device type, id), owner).
enum : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
pybind11::tuple importDlpack(pybind11::object obj, pybind11::object stream);

void define_cuda_launch(pybind11::module_ &m);

}  // namespace kjit::py
