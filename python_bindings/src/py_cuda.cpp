// py_cuda.cpp - the CUDA runtime from Python: devices, memory, device
// arrays, streams, events, interop (__cuda_array_interface__, DLPack).
//
// The launch path is py_cuda_launch.cpp. Device arrays are a C++ base class
// (DeviceArray) that the Python DeviceNDArray extends, so the launch path
// reads their pointer, shape and strides directly.
#include "py_cuda.h"

#include <fmt/format.h>
#include <pthread.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "compiler/Types.h"
#include "cuda_prestart.h"
#include "py_common.h"
#include "py_launch.h"
#include "py_values.h"
#include "runtime/cuda/CudaRuntime.h"

namespace kjit::py {

using cuda::CUstream;

// The runtime is made once, by the first rt() or by the start-up thread
// (startRuntime). Never destroyed: arrays and kernels may be freed at any
// point of the interpreter's shutdown (after atexit, the runtime is marked
// closing and frees nothing).
std::atomic<cuda::Runtime *> gRuntime{nullptr};
std::once_flag gRuntimeOnce;
std::thread *gStartThread = nullptr;  // never destroyed: joined at exit and before fork
// kjit._cuda_prestart's start-up (cuInit and device 0's context, begun
// before this library loaded), when kjit.cuda began one: set by cuda_start
// before any runtime is made.
const kjit_cuda_prestart_api *gPrestart = nullptr;

void makeRuntime(bool warm, const cuda::RuntimeOptions &options) {
  std::call_once(gRuntimeOnce, [warm, &options] {
    // The prestart's work is the driver's own state (cuInit done, device 0's
    // context made): the runtime's calls find it done. Its reference to the
    // context is given back once the runtime holds its own.
    bool prestarted = gPrestart && gPrestart->wait();
    cuda::Runtime *r = nullptr;
    try {
      r = new cuda::Runtime(options);
      if (warm || prestarted) r->warmUp();
    } catch (...) {
      if (gPrestart) gPrestart->release();
      throw;
    }
    if (gPrestart) gPrestart->release();
    gRuntime.store(r, std::memory_order_release);
  });
}

cuda::Runtime &rt() {
  if (cuda::Runtime *r = gRuntime.load(std::memory_order_acquire)) return *r;
  makeRuntime(false,
              cuda::RuntimeOptions::fromEnvironment());  // or waits for the start-up thread's
  return *gRuntime.load(std::memory_order_acquire);
}

// Waits for the start-up thread; no Python (also a fork's prepare handler).
void joinStartThreadRaw() {
  if (gStartThread && gStartThread->joinable()) gStartThread->join();
}

// Driver start-up (cuInit, then device 0's primary context: about 0.1 s
// each) on a thread of its own, begun when kjit.cuda is imported, so that it
// overlaps the rest of the import and the program's own set-up (eager
// kernels compile at their decorators meanwhile). The thread needs no GIL
// and reads no environment variable: the options are read here. It is
// joined before any fork (pthread_atfork) and at exit (kjit's atexit).
// `prestart` is kjit._cuda_prestart's capsule (or None) when that module
// began the driver's start-up already: the runtime then waits for it.
void startRuntime(pybind11::object prestart) {
  if (!prestart.is_none() && !gPrestart) {
    auto *api = static_cast<const kjit_cuda_prestart_api *>(
        PyCapsule_GetPointer(prestart.ptr(), KJIT_CUDA_PRESTART_CAPSULE));
    if (!api) throw pybind11::error_already_set();
    if (gRuntime.load(std::memory_order_acquire)) {
      // A runtime made already holds what it needs: the start-up's
      // reference is given back as soon as the start-up is done.
      pybind11::gil_scoped_release unlocked;
      api->release();
      return;
    }
    gPrestart = api;
  }
  if (gStartThread || gRuntime.load(std::memory_order_acquire)) return;
  cuda::RuntimeOptions options = cuda::RuntimeOptions::fromEnvironment();
  try {
    gStartThread = new std::thread([options] {
      try {
        makeRuntime(true, options);
      } catch (...) {
        // Nothing made: the first rt() makes the runtime and says why.
      }
    });
  } catch (const std::exception &) {
    return;  // no thread to be had: the runtime starts at first use
  }
  static bool forkHandler = (pthread_atfork(joinStartThreadRaw, nullptr, nullptr), true);
  (void)forkHandler;
}

void joinStartThread() {
  if (!gStartThread || !gStartThread->joinable()) return;
  pybind11::gil_scoped_release unlocked;
  joinStartThreadRaw();
}

// ---- errors -------------------------------------------------------------------

void setCudaError(const cuda::Error &e) {
  pybind11::module_ errors = pybind11::module_::import("kjit.cuda.errors");
  const char *cls = e.call == "cuInit" ? "CudaSupportError" : "CudaDriverError";
  pybind11::object type = errors.attr("_error_class")(cls);
  pybind11::object exc = type(e.what(), e.call, e.code, e.name);
  PyErr_SetObject(type.ptr(), exc.ptr());
}

void setKernelRaised(const cuda::KernelRaised &e) {
  KernelException k{e.excClass, e.message, e.kernel, e.file, e.line};
  for (int a = 0; a < 3; ++a) {
    k.thread[a] = e.thread[a];
    k.block[a] = e.block[a];
  }
  try {
    raiseKernelException(k);
  } catch (const pybind11::error_already_set &err) {
    const_cast<pybind11::error_already_set &>(err).restore();
  }
}

CUstream streamHandle(pybind11::handle s) {
  if (s.is_none()) return nullptr;
  if (PyLong_Check(s.ptr()))
    return reinterpret_cast<CUstream>(uintptr_t(PyLong_AsUnsignedLongLong(s.ptr())));
  for (const char *attr : {"handle", "ptr"})
    if (pybind11::hasattr(s, attr)) {
      pybind11::object h = s.attr(attr);
      if (pybind11::hasattr(h, "value")) h = h.attr("value");  // ctypes handles
      if (h.is_none()) return nullptr;
      return reinterpret_cast<CUstream>(uintptr_t(h.cast<unsigned long long>()));
    }
  throw pybind11::type_error(
      "a stream is 0, None, a kjit stream (cuda.stream()) or a stream handle (int)");
}

// A stream work is queued on; the runtime learns whether it is ordered
// with the legacy default stream (its memory pool relies on that).
CUstream streamOf(pybind11::handle s) {
  CUstream h = streamHandle(s);
  if (h) rt().noteStream(h);
  return h;
}

// ---- memory -------------------------------------------------------------------

cuda::Allocation::Kind kindOf(const std::string &k) {
  if (k == "device") return cuda::Allocation::Kind::Device;
  if (k == "pinned") return cuda::Allocation::Kind::Pinned;
  if (k == "mapped") return cuda::Allocation::Kind::Mapped;
  if (k == "managed") return cuda::Allocation::Kind::Managed;
  throw pybind11::value_error("memory kind is device, pinned, mapped or managed");
}

// A contiguous buffer of a Python object (NumPy array, bytes ...).
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
};

void copyIn(uint64_t dst, pybind11::handle src, size_t n, CUstream s) {
  Buffer b(src, false);
  if (size_t(b.view.len) < n)
    throw pybind11::value_error("the host buffer is smaller than the copy");
  rt().activate();
  if (!n) return;
  pybind11::gil_scoped_release nogil;
  if (s)
    rt().check(rt().api().MemcpyHtoDAsync(dst, b.view.buf, n, s), "cuMemcpyHtoDAsync");
  else
    rt().check(rt().api().MemcpyHtoD(dst, b.view.buf, n), "cuMemcpyHtoD");
}

void copyOut(pybind11::handle dst, uint64_t src, size_t n, CUstream s) {
  Buffer b(dst, true);
  if (size_t(b.view.len) < n)
    throw pybind11::value_error("the host buffer is smaller than the copy");
  rt().activate();
  if (!n) return;
  pybind11::gil_scoped_release nogil;
  if (s) {
    rt().check(rt().api().MemcpyDtoHAsync(b.view.buf, src, n, s), "cuMemcpyDtoHAsync");
    rt().checkSync(rt().api().StreamSynchronize(s), "cuStreamSynchronize");
  } else {
    rt().checkSync(rt().api().MemcpyDtoH(b.view.buf, src, n), "cuMemcpyDtoH");
  }
}

void copyDevice(uint64_t dst, uint64_t src, size_t n, CUstream s) {
  rt().activate();
  if (!n) return;
  if (s)
    rt().check(rt().api().MemcpyDtoDAsync(dst, src, n, s), "cuMemcpyDtoDAsync");
  else
    rt().check(rt().api().MemcpyDtoD(dst, src, n), "cuMemcpyDtoD");
}

// ---- device arrays ----------------------------------------------------------

PyTypeObject *deviceArrayType = nullptr;

DeviceArray *asDeviceArray(PyObject *o) {
  // The subclass last seen (kjit.cuda's DeviceNDArray) is recognised without
  // walking its bases: this runs for every argument of every launch.
  static PyTypeObject *knownSubtype = nullptr;
  PyTypeObject *t = Py_TYPE(o);
  if (!deviceArrayType) return nullptr;
  if (t != deviceArrayType && t != knownSubtype) {
    if (!PyType_IsSubtype(t, deviceArrayType)) return nullptr;
    Py_INCREF(t);  // kept: the pointer compared against must stay this type
    Py_XDECREF(reinterpret_cast<PyObject *>(knownSubtype));
    knownSubtype = t;
  }
  auto *inst = reinterpret_cast<pybind11::detail::instance *>(o);
  return inst->get_value_and_holder().value_ptr<DeviceArray>();
}

// ---- DLPack -------------------------------------------------------------------
// The ABI of dlpack.h (v0.8, unversioned capsules named "dltensor").

struct DLDevice {
  int32_t type, id;
};
struct DLDataType {
  uint8_t code, bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape, *strides;
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor dl;
  void *managerCtx;
  void (*deleter)(DLManagedTensor *);
};

// What a kjit array exports: the tensor, its shape and strides, and a
// reference to the array.
struct DlpackExport {
  DLManagedTensor t;
  int64_t shape[kMaxDims], strides[kMaxDims];
  PyObject *array;
};

void deleteExport(DLManagedTensor *t) {
  auto *e = static_cast<DlpackExport *>(t->managerCtx);
  if (Py_IsInitialized()) {
    pybind11::gil_scoped_acquire gil;
    Py_XDECREF(e->array);
  }
  delete e;
}

DLDataType dlTypeOf(const pybind11::dtype &d) {
  char kind = d.kind();
  uint8_t code = kind == 'i'   ? 0
                 : kind == 'u' ? 1
                 : kind == 'f' ? 2
                 : kind == 'c' ? 5
                 : kind == 'b' ? 6
                               : 255;
  if (code == 255) throw pybind11::type_error("DLPack cannot carry this dtype");
  return DLDataType{code, uint8_t(d.itemsize() * 8), 1};
}

pybind11::dtype dtypeOfDl(DLDataType t) {
  if (t.lanes != 1) throw pybind11::type_error("kjit arrays take DLPack tensors of one lane");
  const char *kind = t.code == 0   ? "i"
                     : t.code == 1 ? "u"
                     : t.code == 2 ? "f"
                     : t.code == 5 ? "c"
                     : t.code == 6 ? "b"
                                   : nullptr;
  if (!kind) throw pybind11::type_error(fmt::format("unsupported DLPack type code {}", t.code));
  return pybind11::dtype(fmt::format("{}{}", kind, t.bits / 8));
}

// A tensor of `nd` dimensions at `ptr` (strides in bytes), kept alive by
// `owner` until the consumer deletes it.
pybind11::capsule exportDlpack(pybind11::object owner, uintptr_t ptr, const int64_t *shape,
                               const int64_t *strides, int nd, const pybind11::dtype &dtype,
                               int deviceType, int deviceId) {
  if (nd > kMaxDims) throw pybind11::value_error("too many dimensions for DLPack");
  DLDataType type = dlTypeOf(dtype);
  auto *e = new DlpackExport();
  e->array = owner.release().ptr();
  DLTensor &dl = e->t.dl;
  dl.data = reinterpret_cast<void *>(ptr);
  dl.device = {deviceType, deviceId};
  dl.ndim = nd;
  dl.dtype = type;
  int64_t itemsize = dtype.itemsize();
  for (int k = 0; k < nd; ++k) {
    e->shape[k] = shape[k];
    e->strides[k] = itemsize ? strides[k] / itemsize : 0;
  }
  dl.shape = e->shape;
  dl.strides = e->strides;
  dl.byteOffset = 0;
  e->t.managerCtx = e;
  e->t.deleter = deleteExport;
  return pybind11::capsule(&e->t, "dltensor", [](PyObject *cap) {
    // Not consumed: the capsule still owns the tensor.
    if (PyCapsule_IsValid(cap, "dltensor")) {
      auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
      if (t && t->deleter) t->deleter(t);
    }
  });
}

pybind11::capsule exportDlpack(pybind11::object array, DeviceArray &a, int deviceType,
                               int deviceId) {
  int64_t shape[kMaxDims], strides[kMaxDims];
  for (int k = 0; k < a.nd; ++k) {
    shape[k] = a.shape[k];
    strides[k] = a.strides[k];
  }
  return exportDlpack(std::move(array), a.ptr, shape, strides, a.nd,
                      pybind11::dtype::from_args(a.dtype), deviceType, deviceId);
}

// A consumed DLPack tensor: frees it (through its deleter) when the last
// kjit array viewing it goes.
struct DlpackOwner {
  DLManagedTensor *t = nullptr;
  ~DlpackOwner() {
    if (t && t->deleter) t->deleter(t);
  }
};

// (data pointer, shape, strides in bytes, dtype, (device type, id), owner)
pybind11::tuple importDlpack(pybind11::object obj, pybind11::object stream) {
  pybind11::object cap = stream.is_none()
                             ? obj.attr("__dlpack__")()
                             : obj.attr("__dlpack__")(pybind11::arg("stream") = stream);
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor"))
    throw pybind11::type_error("__dlpack__ did not return a 'dltensor' capsule");
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  auto owner = std::make_shared<DlpackOwner>();
  owner->t = t;
  const DLTensor &dl = t->dl;
  pybind11::dtype dt = dtypeOfDl(dl.dtype);
  pybind11::tuple shape(size_t(dl.ndim)), strides(size_t(dl.ndim));
  int64_t expect = dt.itemsize();
  for (int k = dl.ndim - 1; k >= 0; --k) {
    shape[size_t(k)] = dl.shape[k];
    strides[size_t(k)] = dl.strides ? dl.strides[k] * dt.itemsize() : expect;
    expect *= dl.shape[k];
  }
  uint64_t data = reinterpret_cast<uint64_t>(dl.data) + dl.byteOffset;
  return pybind11::make_tuple(data, shape, strides, dt,
                              pybind11::make_tuple(dl.device.type, dl.device.id),
                              pybind11::cast(owner));
}

// ---- streams and events ------------------------------------------------------

struct Stream {
  CUstream handle = nullptr;
  bool owned = false;
  int device = 0;
  uint64_t generation = 0;
  Stream() {
    rt().activate();
    rt().check(rt().api().StreamCreate(&handle, 0), "cuStreamCreate");
    owned = true;
    device = rt().current();
    generation = rt().generation(device);
  }
  explicit Stream(uintptr_t h) : handle(reinterpret_cast<CUstream>(h)) {}
  ~Stream() {
    if (owned && rt().available() && !rt().closing() && rt().generation(device) == generation)
      rt().api().StreamDestroy(handle);
  }
  void synchronize() {
    rt().activate();
    pybind11::gil_scoped_release nogil;
    rt().checkSync(rt().api().StreamSynchronize(handle), "cuStreamSynchronize");
  }
  bool query() {
    rt().activate();
    cuda::CUresult r = rt().api().StreamQuery(handle);
    if (r == 600) return false;
    rt().check(r, "cuStreamQuery");
    return true;
  }
};

struct Event {
  cuda::CUevent handle = nullptr;
  int device = 0;
  uint64_t generation = 0;
  explicit Event(bool timing) {
    rt().activate();
    rt().check(rt().api().EventCreate(&handle, timing ? 0 : 2), "cuEventCreate");
    device = rt().current();
    generation = rt().generation(device);
  }
  ~Event() {
    if (rt().available() && !rt().closing() && rt().generation(device) == generation)
      rt().api().EventDestroy(handle);
  }
  void record(pybind11::object stream) {
    rt().check(rt().api().EventRecord(handle, streamOf(stream)), "cuEventRecord");
  }
  void synchronize() {
    pybind11::gil_scoped_release nogil;
    rt().checkSync(rt().api().EventSynchronize(handle), "cuEventSynchronize");
  }
  void wait(pybind11::object stream) {
    rt().check(rt().api().StreamWaitEvent(streamOf(stream), handle, 0), "cuStreamWaitEvent");
  }
  bool query() {
    cuda::CUresult r = rt().api().EventQuery(handle);
    if (r == 600) return false;
    rt().check(r, "cuEventQuery");
    return true;
  }
  static float elapsed(const Event &a, const Event &b) {
    float ms = 0;
    rt().check(rt().api().EventElapsedTime(&ms, a.handle, b.handle), "cuEventElapsedTime");
    return ms;
  }
};

// Host memory of an existing array, page-locked for the time of a
// `with cuda.pinned(a):` block.
struct Registration {
  void *ptr = nullptr;
  int device = 0;
  uint64_t generation = 0;
  explicit Registration(pybind11::handle o) {
    Buffer b(o, false);
    rt().activate();
    if (b.view.len == 0) return;
    rt().check(rt().api().MemHostRegister(b.view.buf, size_t(b.view.len), 1 /* PORTABLE */),
               "cuMemHostRegister");
    ptr = b.view.buf;
    device = rt().current();
    generation = rt().generation(device);
  }
  void release() {
    if (ptr && !rt().closing() && rt().generation(device) == generation)
      rt().api().MemHostUnregister(ptr);
    ptr = nullptr;
  }
  ~Registration() { release(); }
};

pybind11::dict deviceInfo(int i) {
  const cuda::DeviceInfo &d = rt().info(i);
  pybind11::dict r;
  r["id"] = d.ordinal;
  r["name"] = d.name;
  r["pci_bus_id"] = d.pciBusId;
  r["compute_capability"] = pybind11::make_tuple(d.ccMajor, d.ccMinor);
  r["MAX_THREADS_PER_BLOCK"] = d.maxThreadsPerBlock;
  r["MAX_BLOCK_DIM_X"] = d.maxBlock[0];
  r["MAX_BLOCK_DIM_Y"] = d.maxBlock[1];
  r["MAX_BLOCK_DIM_Z"] = d.maxBlock[2];
  r["MAX_GRID_DIM_X"] = d.maxGrid[0];
  r["MAX_GRID_DIM_Y"] = d.maxGrid[1];
  r["MAX_GRID_DIM_Z"] = d.maxGrid[2];
  r["MAX_SHARED_MEMORY_PER_BLOCK"] = d.maxSharedPerBlock;
  r["MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"] = d.maxSharedOptin;
  r["WARP_SIZE"] = d.warpSize;
  r["MULTIPROCESSOR_COUNT"] = d.multiprocessors;
  r["UNIFIED_ADDRESSING"] = d.unifiedAddressing;
  r["MANAGED_MEMORY"] = d.managedMemory;
  r["TOTAL_MEMORY"] = d.totalMemory;
  return r;
}

void setErrorFromCurrentException() {
  try {
    throw;
  } catch (pybind11::error_already_set &e) {
    e.restore();
  } catch (const pybind11::builtin_exception &e) {
    e.set_error();
  } catch (const jit::CompileFailure &f) {
    raiseCompileFailure(f);
  } catch (const jit::JitError &e) {
    raiseJitError(e);
  } catch (const cuda::Error &e) {
    setCudaError(e);
  } catch (const cuda::KernelRaised &e) {
    setKernelRaised(e);
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "kjit: an unknown C++ exception");
  }
}

void define_cuda(pybind11::module_ &m) {
  namespace py = pybind11;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const cuda::Error &e) {
      setCudaError(e);
    } catch (const cuda::KernelRaised &e) {
      setKernelRaised(e);
    }
  });
  m.def("cuda_available", [] { return rt().available(); });
  m.def("cuda_start", &startRuntime, py::arg("prestart") = py::none(),
        "begins the CUDA driver's start-up on a thread of its own (after kjit._cuda_prestart's, "
        "given its api)");
  m.def("cuda_join_start", &joinStartThread,
        "waits for the start-up thread (at exit, before fork)");
  m.def("cuda_why", [] { return rt().why(); });
  m.def("cuda_driver_version", [] { return rt().driverVersion(); });
  m.def("cuda_device_count", [] { return rt().available() ? rt().deviceCount() : 0; });
  m.def("cuda_device_info", &deviceInfo);
  m.def("cuda_select", [](int i) { rt().select(i); });
  m.def("cuda_current", [] { return rt().current(); });
  m.def("cuda_activate", [] { rt().activate(); });
  m.def("cuda_synchronize", [] {
    rt().activate();
    py::gil_scoped_release nogil;
    rt().synchronize();
  });
  m.def("cuda_close", [] { rt().close(); });
  m.def("cuda_shutdown", [] {
    // At exit: the runtime (if any was made) frees nothing from now on.
    joinStartThread();
    if (cuda::Runtime *r = gRuntime.load(std::memory_order_acquire)) r->markClosing();
  });
  m.def("cuda_mem_info", [] {
    rt().activate();
    size_t freeB = 0, total = 0;
    rt().check(rt().api().MemGetInfo(&freeB, &total), "cuMemGetInfo");
    return py::make_tuple(freeB, total);
  });
  m.def("cuda_generation", [] { return rt().available() ? rt().generation(rt().current()) : 0; });

  py::class_<MemoryHandle>(m, "CudaMemory", py::buffer_protocol())
      .def_property_readonly("device_pointer", &MemoryHandle::devicePointer)
      .def_property_readonly("host_pointer", &MemoryHandle::hostPointer)
      .def_property_readonly("size", [](const MemoryHandle &h) { return h.mem->size; })
      .def_property_readonly("alive", [](const MemoryHandle &h) { return rt().valid(*h.mem); })
      .def_buffer([](MemoryHandle &h) -> py::buffer_info {
        if (!h.mem->host) throw py::type_error("device memory has no host view");
        return py::buffer_info(h.mem->host, 1, "B", 1, {py::ssize_t(h.mem->size)},
                               {py::ssize_t(1)});
      });
  m.def("cuda_alloc", [](size_t bytes, const std::string &kind) {
    return MemoryHandle{rt().allocate(bytes, kindOf(kind))};
  });
  m.def("cuda_memcpy_htod", [](uint64_t dst, py::object src, size_t n, py::object s) {
    copyIn(dst, src, n, streamOf(s));
  });
  m.def("cuda_memcpy_dtoh", [](py::object dst, uint64_t src, size_t n, py::object s) {
    copyOut(dst, src, n, streamOf(s));
  });
  m.def("cuda_memcpy_dtod", [](uint64_t dst, uint64_t src, size_t n, py::object s) {
    copyDevice(dst, src, n, streamOf(s));
  });
  py::class_<Registration>(m, "CudaHostRegistration")
      .def(py::init<py::handle>())
      .def("release", &Registration::release);
  define_cuda_launch(m);
  m.def(
      "cuda_load_ptx",
      [](const std::string &ptx, const std::string &entry, const std::string &name) {
        rt().activate();
        rt().load(ptx, entry, name);
      },
      "loads PTX as a kernel's module would be (errors carry the JIT log)");
  m.def("cuda_link_ptx", [](const std::string &ptx, const std::string &name) {
    return py::bytes(rt().linkPtx(ptx, name));
  });
  m.def(
      "cuda_register_link",
      [](const std::string &symbol,
         const std::vector<std::tuple<std::string, py::bytes, std::string>> &items) {
        std::vector<cuda::Runtime::LinkInput> in;
        for (const auto &[kind, data, name] : items) in.push_back({kind, std::string(data), name});
        rt().registerLink(symbol, std::move(in));
      },
      "cuda.declare_device's link=: the code linked with every module that calls `symbol`");

  auto arr =
      py::class_<DeviceArray>(m, "DeviceArrayBase", py::dynamic_attr())
          .def(py::init<>())
          .def("_setup", &DeviceArray::setup)
          .def_property_readonly("shape", &DeviceArray::shapeTuple)
          .def_property_readonly("strides", &DeviceArray::stridesTuple)
          .def_property_readonly("ndim", [](const DeviceArray &a) { return a.nd; })
          .def_property_readonly("dtype", [](const DeviceArray &a) { return a.dtype; })
          .def_property_readonly("_ptr", [](const DeviceArray &a) { return a.ptr; })
          .def_property_readonly("_readonly", [](const DeviceArray &a) { return a.readonly; })
          .def_property_readonly("_memory",
                                 [](const DeviceArray &a) -> py::object {
                                   return a.mem ? py::cast(MemoryHandle{a.mem}) : py::none();
                                 })
          .def_property_readonly("_owner", [](const DeviceArray &a) { return a.owner; })
          .def_property_readonly("_alive", &DeviceArray::alive)
          .def_property_readonly("_layout",
                                 [](const DeviceArray &a) { return std::string(1, a.layout()); })
          .def_property(
              "stream", [](const DeviceArray &a) { return a.stream; },
              [](DeviceArray &a, py::object s) { a.stream = std::move(s); })
          .def("_dlpack", [](py::object self, int deviceType, int deviceId) {
            return exportDlpack(self, self.cast<DeviceArray &>(), deviceType, deviceId);
          });
  deviceArrayType = reinterpret_cast<PyTypeObject *>(arr.ptr());
  py::class_<DlpackOwner, std::shared_ptr<DlpackOwner>>(m, "DlpackOwner");
  m.def("dlpack_import", &importDlpack, py::arg("obj"), py::arg("stream") = py::none());
  // Any device's memory (kjit.hip's arrays: ROCm, DLPack device type 10).
  m.def("dlpack_export",
        [](py::object owner, uintptr_t ptr, std::vector<int64_t> shape,
           std::vector<int64_t> strides, py::dtype dtype, int deviceType, int deviceId) {
          if (shape.size() != strides.size())
            throw py::value_error("shape and strides differ in length");
          return exportDlpack(std::move(owner), ptr, shape.data(), strides.data(),
                              int(shape.size()), dtype, deviceType, deviceId);
        });

  py::class_<Stream>(m, "CudaStream")
      .def(py::init<>())
      .def(py::init<uintptr_t>())
      .def_property_readonly("handle",
                             [](const Stream &s) { return reinterpret_cast<uintptr_t>(s.handle); })
      .def("synchronize", &Stream::synchronize)
      .def("query", &Stream::query);
  py::class_<Event>(m, "CudaEvent")
      .def(py::init<bool>(), py::arg("timing") = true)
      .def_property_readonly("handle",
                             [](const Event &e) { return reinterpret_cast<uintptr_t>(e.handle); })
      .def("record", &Event::record, py::arg("stream") = 0)
      .def("synchronize", &Event::synchronize)
      .def("wait", &Event::wait, py::arg("stream") = 0)
      .def("query", &Event::query)
      .def_static("elapsed_time", &Event::elapsed);
}

}  // namespace kjit::py
