// py_device.cpp - one binding of the device layer for every device kind:
// `_kjit.device(kind)` (memory, copies, streams, events, properties), the
// device arrays' C++ base, and interop (__cuda_array_interface__, DLPack).
// kjit/hostapi is the Python host API over it.
#include "py_device.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>

#include "py_common.h"
#include "py_launch.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/hip/HipDevice.h"
#include "runtime/host/HostDevice.h"
#include "runtime/jit/JitFunction.h"

namespace kjit::py {

namespace py = pybind11;

cuda::Runtime &rt();

device::Device &ModuleState::device(const std::string &kind) {
  std::lock_guard<std::mutex> hold(devicesMutex_);
  if (kind == "cuda") {
    if (!cuda_) cuda_ = new cuda::CudaDevice(rt());
    return *cuda_;
  }
  if (kind == "hip") {
    if (!hipDevice_) hipDevice_ = new hip::HipDevice(hipRuntime());
    return *hipDevice_;
  }
  if (kind == "cpu") {
    if (!host_) host_ = new host::HostDevice(&jitRuntime().threadPool(), "kjit CPU device");
    return *host_;
  }
  throw py::value_error(fmt::format("no device kind '{}' (cuda, hip or cpu)", kind));
}

device::Device &deviceOf(const std::string &kind) { return moduleState().device(kind); }

// ---- errors -------------------------------------------------------------------

void setDeviceError(const device::Error &e) {
  py::module_ errors = py::module_::import("kjit.cuda.errors");
  bool start = e.call == "cuInit" || e.call == "hipInit";
  py::object type = errors.attr("_error_class")(start ? "CudaSupportError" : "CudaDriverError");
  py::object exc = type(e.what(), e.call, e.code, e.name);
  PyErr_SetObject(type.ptr(), exc.ptr());
}

void setKernelRaised(const abi::KernelRaised &e) {
  KernelException k{e.excClass, e.message, e.kernel, e.file, e.line};
  for (int a = 0; a < 3; ++a) {
    k.thread[a] = e.thread[a];
    k.block[a] = e.block[a];
  }
  try {
    raiseKernelException(k);
  } catch (const py::error_already_set &err) {
    const_cast<py::error_already_set &>(err).restore();
  }
}

// ---- streams and copies ---------------------------------------------------------

device::Stream streamHandle(py::handle s) {
  if (s.is_none()) return nullptr;
  if (PyLong_Check(s.ptr()))
    return reinterpret_cast<device::Stream>(uintptr_t(PyLong_AsUnsignedLongLong(s.ptr())));
  for (const char *attr : {"handle", "ptr"})
    if (py::hasattr(s, attr)) {
      py::object h = s.attr(attr);
      if (py::hasattr(h, "value")) h = h.attr("value");  // ctypes handles
      if (h.is_none()) return nullptr;
      return reinterpret_cast<device::Stream>(uintptr_t(h.cast<unsigned long long>()));
    }
  throw py::type_error(
      "a stream is 0, None, a kjit stream (cuda.stream()) or a stream handle (int)");
}

void copyIn(device::Device &d, uint64_t dst, py::handle src, size_t n, device::Stream s) {
  Buffer b(src, false);
  if (size_t(b.view.len) < n) throw py::value_error("the host buffer is smaller than the copy");
  py::gil_scoped_release nogil;
  d.copyToDevice(dst, b.view.buf, n, s);
}

void copyOut(device::Device &d, py::handle dst, uint64_t src, size_t n, device::Stream s) {
  Buffer b(dst, true);
  if (size_t(b.view.len) < n) throw py::value_error("the host buffer is smaller than the copy");
  py::gil_scoped_release nogil;
  d.copyToHost(b.view.buf, src, n, s);
}

namespace {

// A stream or an event of a device, destroyed with its Python object
// unless its context went first (epoch) or the process is ending.
struct Stream {
  device::Device *dev = nullptr;
  device::Stream handle = nullptr;
  bool owned = false;
  uint64_t epoch = 0;
  explicit Stream(device::Device &d) : dev(&d), handle(d.createStream()), owned(true) {
    epoch = d.epoch();
  }
  Stream(device::Device &d, uintptr_t h) : dev(&d), handle(reinterpret_cast<device::Stream>(h)) {}
  ~Stream() {
    if (owned && !dev->closing() && dev->epoch() == epoch) dev->destroyStream(handle);
  }
  void synchronize() {
    py::gil_scoped_release nogil;
    dev->synchronizeStream(handle);
  }
  bool query() { return dev->queryStream(handle); }
};

struct Event {
  device::Device *dev = nullptr;
  device::Event handle = nullptr;
  uint64_t epoch = 0;
  bool timing = true;
  Event(device::Device &d, bool t) : dev(&d), handle(d.createEvent(t)), timing(t) {
    epoch = d.epoch();
  }
  ~Event() {
    if (!dev->closing() && dev->epoch() == epoch) dev->destroyEvent(handle);
  }
  void record(py::object stream) { dev->record(handle, streamHandle(stream)); }
  void synchronize() {
    py::gil_scoped_release nogil;
    dev->synchronizeEvent(handle);
  }
  void wait(py::object stream) { dev->wait(streamHandle(stream), handle); }
  bool query() { return dev->queryEvent(handle); }
  static float elapsed(const Event &a, const Event &b) {
    return a.dev->elapsedMs(a.handle, b.handle);
  }
};

// Memory as Python holds it: kjit's device arrays keep one; a buffer over
// the host's view where there is one (pinned, mapped, managed memory; all
// of the CPU device's).
struct MemoryHandle {
  std::shared_ptr<device::Memory> mem;
};

py::dict propertiesDict(const device::Properties &p) {
  py::dict r;
  r["id"] = p.ordinal;
  r["name"] = p.name;
  r["arch"] = p.arch;
  r["compute_capability"] = py::make_tuple(p.ccMajor, p.ccMinor);
  r["warp_size"] = p.warpSize;
  r["total_memory"] = p.totalMemory;
  r["multiprocessors"] = p.multiprocessors;
  r["max_threads_per_block"] = p.maxThreadsPerBlock;
  r["max_block"] = py::make_tuple(p.maxBlock[0], p.maxBlock[1], p.maxBlock[2]);
  r["max_grid"] = py::make_tuple(p.maxGrid[0], p.maxGrid[1], p.maxGrid[2]);
  r["max_shared_per_block"] = p.maxSharedPerBlock;
  return r;
}

device::MemoryKind memoryKind(const std::string &k) {
  device::MemoryKind out;
  if (!device::kindOfName(k, out))
    throw py::value_error("memory kind is device, pinned, mapped or managed");
  return out;
}

}  // namespace

// ---- device arrays ----------------------------------------------------------------

void DeviceArray::setup(py::object memory, py::object own, uint64_t p, py::tuple shp, py::tuple str,
                        py::object dt, py::object st, bool ro) {
  if (shp.size() != str.size() || shp.size() > size_t(kMaxDims))
    throw py::value_error(
        fmt::format("device arrays have 0 to {} dimensions, with as many strides", kMaxDims));
  mem = memory.is_none() ? nullptr : memory.cast<MemoryHandle &>().mem;
  owner = std::move(own);
  ptr = p;
  nd = int(shp.size());
  for (int k = 0; k < nd; ++k) {
    shape[k] = shp[size_t(k)].cast<int64_t>();
    strides[k] = str[size_t(k)].cast<int64_t>();
  }
  py::dtype d = py::dtype::from_args(dt);
  code = dtypeCodeOf(d.ptr());
  dkey = dtypeKeyOf(d.ptr());
  itemsize = d.itemsize();
  dtype = d;
  stream = std::move(st);
  readonly = ro;
}

py::tuple DeviceArray::shapeTuple() const {
  py::tuple t(nd);
  for (int k = 0; k < nd; ++k) t[size_t(k)] = shape[k];
  return t;
}

py::tuple DeviceArray::stridesTuple() const {
  py::tuple t(nd);
  for (int k = 0; k < nd; ++k) t[size_t(k)] = strides[k];
  return t;
}

char DeviceArray::layoutOf(int nd, const int64_t *shape, const int64_t *strides, int64_t itemsize) {
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

py::object DeviceArray::hostView(py::handle self) {
  DeviceArray &a = self.cast<DeviceArray &>();
  std::vector<py::ssize_t> shp(a.shape, a.shape + a.nd), str(a.strides, a.strides + a.nd);
  py::array view(py::dtype::from_args(a.dtype), shp, str,
                 reinterpret_cast<void *>(uintptr_t(a.ptr)), self);
  if (a.readonly)
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(view);
}

PyTypeObject *deviceArrayType = nullptr;

DeviceArray *asDeviceArray(PyObject *o) {
  // The subclass last seen (kjit's DeviceNDArray) is recognised without
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
  auto *inst = reinterpret_cast<py::detail::instance *>(o);
  return inst->get_value_and_holder().value_ptr<DeviceArray>();
}

// ---- DLPack -------------------------------------------------------------------
// The ABI of dlpack.h (v0.8, unversioned capsules named "dltensor").

namespace {

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
    py::gil_scoped_acquire gil;
    Py_XDECREF(e->array);
  }
  delete e;
}

DLDataType dlTypeOf(const py::dtype &d) {
  constexpr uint8_t kDLBfloat = 4, kDLFloat8E4M3FN = 10, kDLFloat8E5M2 = 12;
  switch (dtypeCodeOf(d.ptr())) {
  case 'y': return DLDataType{kDLBfloat, 16, 1};
  case 'q': return DLDataType{kDLFloat8E4M3FN, 8, 1};
  case 'r': return DLDataType{kDLFloat8E5M2, 8, 1};
  default: break;
  }
  char kind = d.kind();
  uint8_t code = kind == 'i'   ? 0
                 : kind == 'u' ? 1
                 : kind == 'f' ? 2
                 : kind == 'c' ? 5
                 : kind == 'b' ? 6
                               : 255;
  if (code == 255) throw py::type_error("DLPack cannot carry this dtype");
  return DLDataType{code, uint8_t(d.itemsize() * 8), 1};
}

py::dtype dtypeOfDl(DLDataType t) {
  if (t.lanes != 1) throw py::type_error("kjit arrays take DLPack tensors of one lane");
  constexpr uint8_t kDLBfloat = 4, kDLFloat8E4M3FN = 10, kDLFloat8E5M2 = 12;
  if (t.code == kDLBfloat && t.bits == 16)
    return py::module_::import("kjit.bfloat16_host").attr("dtype")().cast<py::dtype>();
  if ((t.code == kDLFloat8E4M3FN || t.code == kDLFloat8E5M2) && t.bits == 8)
    return py::module_::import("kjit.float8_host")
        .attr("dtype")(t.code == kDLFloat8E5M2 ? "float8_e5m2" : "float8_e4m3fn")
        .cast<py::dtype>();
  const char *kind = t.code == 0   ? "i"
                     : t.code == 1 ? "u"
                     : t.code == 2 ? "f"
                     : t.code == 5 ? "c"
                     : t.code == 6 ? "b"
                                   : nullptr;
  if (!kind) throw py::type_error(fmt::format("unsupported DLPack type code {}", t.code));
  return py::dtype(fmt::format("{}{}", kind, t.bits / 8));
}

// A tensor of `nd` dimensions at `ptr` (strides in bytes), kept alive by
// `owner` until the consumer deletes it.
py::capsule exportDlpack(py::object owner, uintptr_t ptr, const int64_t *shape,
                         const int64_t *strides, int nd, const py::dtype &dtype, int deviceType,
                         int deviceId) {
  if (nd > kMaxDims) throw py::value_error("too many dimensions for DLPack");
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
  return py::capsule(&e->t, "dltensor", [](PyObject *cap) {
    // Not consumed: the capsule still owns the tensor.
    if (PyCapsule_IsValid(cap, "dltensor")) {
      auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
      if (t && t->deleter) t->deleter(t);
    }
  });
}

// A consumed DLPack tensor: frees it (through its deleter) when the last
// kjit array viewing it goes.
struct DlpackOwner {
  DLManagedTensor *t = nullptr;
  ~DlpackOwner() {
    if (t && t->deleter) t->deleter(t);
  }
};

}  // namespace

// (data pointer, shape, strides in bytes, dtype, (device type, id), owner)
py::tuple importDlpack(py::object obj, py::object stream) {
  py::object cap = stream.is_none() ? obj.attr("__dlpack__")()
                                    : obj.attr("__dlpack__")(py::arg("stream") = stream);
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor"))
    throw py::type_error("__dlpack__ did not return a 'dltensor' capsule");
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  auto owner = std::make_shared<DlpackOwner>();
  owner->t = t;
  const DLTensor &dl = t->dl;
  py::dtype dt = dtypeOfDl(dl.dtype);
  py::tuple shape(size_t(dl.ndim)), strides(size_t(dl.ndim));
  int64_t expect = dt.itemsize();
  for (int k = dl.ndim - 1; k >= 0; --k) {
    shape[size_t(k)] = dl.shape[k];
    strides[size_t(k)] = dl.strides ? dl.strides[k] * dt.itemsize() : expect;
    expect *= dl.shape[k];
  }
  uint64_t data = reinterpret_cast<uint64_t>(dl.data) + dl.byteOffset;
  return py::make_tuple(data, shape, strides, dt, py::make_tuple(dl.device.type, dl.device.id),
                        py::cast(owner));
}

// ---- errors -----------------------------------------------------------------------

bool setKjitError(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (const jit::CompileFailure &f) {
    raiseCompileFailure(f);
  } catch (const jit::JitError &e) {
    raiseJitError(e);
  } catch (const device::Error &e) {
    setDeviceError(e);
  } catch (const abi::KernelRaised &e) {
    setKernelRaised(e);
  } catch (const device::Unsupported &e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (...) {
    return false;
  }
  return true;
}

void setErrorFromCurrentException() {
  try {
    throw;
  } catch (pybind11::error_already_set &e) {
    e.restore();
  } catch (const pybind11::builtin_exception &e) {
    e.set_error();
  } catch (...) {
    if (setKjitError(std::current_exception())) return;
    try {
      throw;
    } catch (const std::exception &e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (...) {
      PyErr_SetString(PyExc_RuntimeError, "kjit: an unknown C++ exception");
    }
  }
}

// ---- the binding ------------------------------------------------------------------

void define_device(py::module_ &m) {
  py::class_<MemoryHandle>(m, "Memory", py::buffer_protocol())
      .def_property_readonly("device_pointer", [](const MemoryHandle &h) { return h.mem->address; })
      .def_property_readonly(
          "host_pointer",
          [](const MemoryHandle &h) { return reinterpret_cast<uintptr_t>(h.mem->host); })
      .def_property_readonly("size", [](const MemoryHandle &h) { return h.mem->size; })
      .def_property_readonly("kind",
                             [](const MemoryHandle &h) { return device::kindName(h.mem->kind); })
      .def_property_readonly("alive", [](const MemoryHandle &h) { return h.mem->alive(); })
      .def_buffer([](MemoryHandle &h) -> py::buffer_info {
        if (!h.mem->host) throw py::type_error("device memory has no host view");
        return py::buffer_info(h.mem->host, 1, "B", 1, {py::ssize_t(h.mem->size)},
                               {py::ssize_t(1)});
      });

  py::class_<device::Device>(m, "Device")
      .def_property_readonly("kind", [](const device::Device &d) { return std::string(d.kind()); })
      .def("available", &device::Device::available)
      .def("why", &device::Device::why)
      .def("count", &device::Device::count)
      .def("properties",
           [](const device::Device &d, int i) { return propertiesDict(d.properties(i)); })
      .def("current", &device::Device::current)
      .def("select", &device::Device::select)
      .def("synchronize",
           [](device::Device &d) {
             py::gil_scoped_release nogil;
             d.synchronize();
           })
      .def("memory_info",
           [](device::Device &d) {
             auto [freeB, total] = d.memoryInfo();
             return py::make_tuple(freeB, total);
           })
      .def("epoch", &device::Device::epoch)
      .def(
          "alloc",
          [](device::Device &d, size_t bytes, const std::string &kind) {
            return MemoryHandle{d.allocate(bytes, memoryKind(kind))};
          },
          py::arg("bytes"), py::arg("kind") = "device")
      .def("to_device", [](device::Device &d, uint64_t dst, py::object src, size_t n,
                           py::object s) { copyIn(d, dst, src, n, streamHandle(s)); })
      .def("to_host", [](device::Device &d, py::object dst, uint64_t src, size_t n,
                         py::object s) { copyOut(d, dst, src, n, streamHandle(s)); })
      .def("on_device", [](device::Device &d, uint64_t dst, uint64_t src, size_t n,
                           py::object s) { d.copyOnDevice(dst, src, n, streamHandle(s)); })
      .def("fill", [](device::Device &d, uint64_t dst, unsigned value, size_t n, py::object s) {
        d.fill(dst, static_cast<unsigned char>(value), n, streamHandle(s));
      });
  m.def("device", &deviceOf, py::return_value_policy::reference,
        "the device layer of a kind: 'cuda', 'hip' or 'cpu' (runtime/device/Device.h)");

  py::class_<Stream>(m, "Stream", py::dynamic_attr())
      .def(py::init([](const std::string &kind) { return new Stream(deviceOf(kind)); }))
      .def(py::init(
          [](const std::string &kind, uintptr_t h) { return new Stream(deviceOf(kind), h); }))
      .def_property_readonly("handle",
                             [](const Stream &s) { return reinterpret_cast<uintptr_t>(s.handle); })
      .def_property_readonly("device_kind",
                             [](const Stream &s) { return std::string(s.dev->kind()); })
      .def("synchronize", &Stream::synchronize)
      .def("query", &Stream::query);
  py::class_<Event>(m, "Event", py::dynamic_attr())
      .def(py::init([](const std::string &kind, bool timing) {
             return new Event(deviceOf(kind), timing);
           }),
           py::arg("kind"), py::arg("timing") = true)
      .def_property_readonly("handle",
                             [](const Event &e) { return reinterpret_cast<uintptr_t>(e.handle); })
      .def_readonly("timing", &Event::timing)
      .def("record", &Event::record, py::arg("stream") = 0)
      .def("synchronize", &Event::synchronize)
      .def("wait", &Event::wait, py::arg("stream") = 0)
      .def("query", &Event::query)
      .def_static("elapsed_time", &Event::elapsed);

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
          .def("_host_view", [](py::object self) { return DeviceArray::hostView(self); })
          .def("_dlpack", [](py::object self, int deviceType, int deviceId) {
            DeviceArray &a = self.cast<DeviceArray &>();
            return exportDlpack(self, uintptr_t(a.ptr), a.shape, a.strides, a.nd,
                                py::dtype::from_args(a.dtype), deviceType, deviceId);
          });
  deviceArrayType = reinterpret_cast<PyTypeObject *>(arr.ptr());
  py::class_<DlpackOwner, std::shared_ptr<DlpackOwner>>(m, "DlpackOwner");
  m.def("dlpack_import", &importDlpack, py::arg("obj"), py::arg("stream") = py::none());
  m.def("dlpack_export",
        [](py::object owner, uintptr_t ptr, std::vector<int64_t> shape,
           std::vector<int64_t> strides, py::dtype dtype, int deviceType, int deviceId) {
          if (shape.size() != strides.size())
            throw py::value_error("shape and strides differ in length");
          return exportDlpack(std::move(owner), ptr, shape.data(), strides.data(),
                              int(shape.size()), dtype, deviceType, deviceId);
        });
}

}  // namespace kjit::py
