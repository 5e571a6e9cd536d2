// py_hip.cpp - the HIP runtime (runtime/hip) for kjit.hip: whether an AMD
// GPU is there and which, device memory, code objects and launches. The
// launch path is kjit/hip/__init__.py's (it packs the parameters); this
// file is its thin layer over the runtime. Errors become Python ones:
// hip::Error a kjit.cuda.errors.CudaSupportError (no device) or
// CudaDriverError naming the HIP call and error, hip::KernelRaised the
// exception the kernel recorded.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "py_common.h"
#include "py_launch.h"
#include "runtime/hip/HipRuntime.h"

namespace kjit::py {

hip::Runtime &ModuleState::hipRuntime() {
  std::call_once(hipOnce_, [this] { hip_ = new hip::Runtime(); });
  return *hip_;
}

namespace {

hip::Runtime &hipRuntime() { return moduleState().hipRuntime(); }

[[noreturn]] void raiseHip(const hip::Error &e) {
  pybind11::module_ errors = pybind11::module_::import("kjit.cuda.errors");
  const char *cls = e.call == "hipInit" ? "CudaSupportError" : "CudaDriverError";
  pybind11::object type = errors.attr("_error_class")(cls);
  pybind11::object exc = type(e.what(), e.call, e.code, e.name);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw pybind11::error_already_set();
}

[[noreturn]] void raiseRecorded(const hip::KernelRaised &e) {
  KernelException k{e.excClass, e.message, e.kernel, e.file, e.line};
  for (int a = 0; a < 3; ++a) {
    k.thread[a] = e.thread[a];
    k.block[a] = e.block[a];
  }
  raiseKernelException(k);
}

template <class F>
auto guarded(F f) -> decltype(f()) {
  try {
    return f();
  } catch (const hip::KernelRaised &e) {
    raiseRecorded(e);
  } catch (const hip::Error &e) {
    raiseHip(e);
  }
}

// A stream or an event, destroyed with its Python object.
struct Stream {
  hip::hipStream_t handle = nullptr;
  ~Stream() {
    try {
      hipRuntime().destroyStream(handle);
    } catch (...) {  // (a destructor: the runtime may be gone at exit)
    }
  }
};
struct Event {
  hip::hipEvent_t handle = nullptr;
  ~Event() {
    try {
      hipRuntime().destroyEvent(handle);
    } catch (...) {
    }
  }
};

hip::hipStream_t streamOf(const pybind11::object &s) {
  if (s.is_none()) return nullptr;
  return s.cast<Stream &>().handle;
}

void *pointer(uintptr_t p) { return reinterpret_cast<void *>(p); }

}  // namespace

void define_hip(pybind11::module_ &m) {
  namespace py = pybind11;
  py::class_<hip::Buffer, std::shared_ptr<hip::Buffer>>(m, "HipBuffer")
      .def_property_readonly(
          "ptr", [](const hip::Buffer &b) { return reinterpret_cast<uintptr_t>(b.ptr); })
      .def_property_readonly("size", [](const hip::Buffer &b) { return b.size; });
  py::class_<hip::LoadedKernel, std::shared_ptr<hip::LoadedKernel>>(m, "HipKernel")
      .def_property_readonly("name", [](const hip::LoadedKernel &k) { return k.name; });

  py::class_<Stream, std::shared_ptr<Stream>>(m, "HipStream")
      .def_property_readonly("handle",
                             [](const Stream &s) { return reinterpret_cast<uintptr_t>(s.handle); });
  py::class_<Event, std::shared_ptr<Event>>(m, "HipEvent");

  m.def("hip_available", [] { return hipRuntime().available(); });
  m.def("hip_why", [] { return hipRuntime().why(); });
  m.def("hip_library", [] { return hipRuntime().library(); });
  m.def("hip_devices", [] {
    py::list out;
    hip::Runtime &rt = hipRuntime();
    if (!rt.available()) return out;
    for (int i = 0; i < rt.deviceCount(); ++i) {
      const hip::DeviceInfo &d = rt.info(i);
      py::dict e;
      e["ordinal"] = d.ordinal;
      e["name"] = d.name;
      e["arch"] = d.arch;
      e["processor"] = d.processor;
      e["wavefront"] = d.wavefront;
      e["total_memory"] = d.totalMemory;
      out.append(e);
    }
    return out;
  });
  m.def("hip_current", [] { return guarded([] { return hipRuntime().current(); }); });
  m.def("hip_select", [](int i) { guarded([&] { hipRuntime().select(i); }); });
  m.def("hip_malloc",
        [](size_t bytes) { return guarded([&] { return hipRuntime().allocate(bytes); }); });
  m.def("hip_to_device", [](const std::shared_ptr<hip::Buffer> &b, py::buffer src) {
    py::buffer_info info = src.request();
    size_t bytes = size_t(info.size * info.itemsize);
    if (bytes > b->size) throw py::value_error("more bytes than the device buffer holds");
    guarded([&] { hipRuntime().copyToDevice(b->ptr, info.ptr, bytes); });
  });
  m.def("hip_to_host", [](const std::shared_ptr<hip::Buffer> &b, py::buffer dst) {
    py::buffer_info info = dst.request(true);
    size_t bytes = size_t(info.size * info.itemsize);
    if (bytes > b->size) throw py::value_error("more bytes than the device buffer holds");
    guarded([&] { hipRuntime().copyToHost(info.ptr, b->ptr, bytes); });
  });
  // Copies by device address (views of a buffer start inside it); `bytes`
  // of the host buffer's. The caller checks the sizes (kjit/hip/hostapi.py).
  m.def("hip_copy_in", [](uintptr_t dst, py::buffer src) {
    py::buffer_info info = src.request();
    guarded([&] {
      hipRuntime().copyToDevice(pointer(dst), info.ptr, size_t(info.size * info.itemsize));
    });
  });
  m.def("hip_copy_out", [](py::buffer dst, uintptr_t src) {
    py::buffer_info info = dst.request(true);
    guarded([&] {
      hipRuntime().copyToHost(info.ptr, pointer(src), size_t(info.size * info.itemsize));
    });
  });
  m.def("hip_copy_device", [](uintptr_t dst, uintptr_t src, size_t bytes) {
    guarded([&] { hipRuntime().copyOnDevice(pointer(dst), pointer(src), bytes); });
  });
  m.def("hip_fill", [](uintptr_t dst, unsigned value, size_t bytes) {
    guarded([&] { hipRuntime().fill(pointer(dst), static_cast<unsigned char>(value), bytes); });
  });
  m.def("hip_stream_create", [] {
    auto s = std::make_shared<Stream>();
    s->handle = guarded([] { return hipRuntime().createStream(); });
    return s;
  });
  m.def("hip_stream_synchronize", [](const std::shared_ptr<Stream> &s) {
    guarded([&] { hipRuntime().synchronize(s->handle); });
  });
  m.def("hip_event_create", [] {
    auto e = std::make_shared<Event>();
    e->handle = guarded([] { return hipRuntime().createEvent(); });
    return e;
  });
  m.def("hip_event_record", [](const std::shared_ptr<Event> &e, const py::object &stream) {
    guarded([&] { hipRuntime().record(e->handle, streamOf(stream)); });
  });
  m.def("hip_event_synchronize", [](const std::shared_ptr<Event> &e) {
    guarded([&] { hipRuntime().synchronize(e->handle); });
  });
  m.def("hip_event_elapsed", [](const std::shared_ptr<Event> &a, const std::shared_ptr<Event> &b) {
    return guarded([&] { return hipRuntime().elapsedMs(a->handle, b->handle); });
  });
  m.def("hip_load", [](py::bytes hsaco, const std::string &entry, const std::string &name) {
    std::string image = hsaco;
    return guarded([&] { return hipRuntime().load(image, entry, name); });
  });
  // params: each parameter's bytes, in the kernel's order.
  m.def(
      "hip_launch",
      [](const std::shared_ptr<hip::LoadedKernel> &k, std::vector<unsigned> grid,
         std::vector<unsigned> block, unsigned shared, std::vector<std::string> params,
         const py::object &stream) {
        if (grid.size() != 3 || block.size() != 3)
          throw py::value_error("grid and block are (x, y, z)");
        std::vector<void *> ptrs;
        for (std::string &p : params) ptrs.push_back(p.data());
        guarded([&] {
          hipRuntime().launch(k, grid.data(), block.data(), shared, streamOf(stream),
                              ptrs.empty() ? nullptr : ptrs.data());
        });
      },
      py::arg("kernel"), py::arg("grid"), py::arg("block"), py::arg("shared"), py::arg("params"),
      py::arg("stream") = py::none());
  m.def("hip_synchronize", [] { guarded([] { hipRuntime().synchronize(); }); });
}

}  // namespace kjit::py
