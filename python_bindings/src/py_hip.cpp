// py_hip.cpp - the HIP runtime (runtime/hip) for kjit.hip: whether an AMD
// GPU is there and which, code objects, and the launch's parameters.
// Memory, copies, streams and events are the device layer's
// (py_device.cpp, `_kjit.device("hip")`). kjit/hip/launch.py types the
// arguments, compiles and loads; hip_launch packs the parameters here, with
// the packer every device uses (runtime/device/Params.h), and launches.
// Errors become Python ones as every device's do (py_device.cpp).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/Session.h"
#include "py_common.h"
#include "py_device.h"
#include "py_dispatcher.h"
#include "runtime/device/Params.h"
#include "runtime/hip/HipDevice.h"
#include "runtime/jit/JitFunction.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::py {

hip::Runtime &ModuleState::hipRuntime() {
  std::call_once(hipOnce_, [this] { hip_ = new hip::Runtime(); });
  return *hip_;
}

namespace {

hip::Runtime &hipRuntime() { return moduleState().hipRuntime(); }

bool byValue(const Type *t) {
  if (t->isTuple()) {
    for (const Type *e : t->elements())
      if (!byValue(e)) return false;
    return true;
  }
  return t->isNumber() || t->isBool();
}

// Packs a launch's parameters: `values` are its arguments with host arrays
// already copied to the device (device arrays, numbers, tuples of
// numbers); their types are the ones the argument type key `key` resolves
// to.
void pack(Dispatcher &d, const std::string &key, const std::string &kernelName,
          pybind11::tuple values, device::ParamPacker &pack) {
  TypeContext tc;
  std::vector<const Type *> types =
      jit::typesOfKey(jitRuntime().session(), tc, d.function().cudaResolve(key));
  if (types.size() != values.size())
    throw pybind11::type_error(fmt::format("kernel '{}' takes {} arguments, not {}", kernelName,
                                           types.size(), values.size()));
  for (size_t i = 0; i < types.size(); ++i) {
    const Type *t = types[i];
    PyObject *v = values[i].ptr();
    if (t->isArray()) {
      DeviceArray *a = asDeviceArray(v);
      if (!a)
        throw pybind11::type_error(
            fmt::format("kernel '{}': argument {} is not on the AMD GPU", kernelName, i + 1));
      pack.array(a->ptr, a->nd, a->shape, a->strides);
      continue;
    }
    if (t->isTuple() && jit::memSize(t) == 0) continue;  // (), ((), ()): no parameter
    if (!byValue(t))
      throw pybind11::type_error(
          fmt::format("kernel '{}': an argument of type {} cannot be passed to an AMD GPU kernel "
                      "yet (arrays, device arrays, numbers and tuples of numbers can: "
                      "docs/amdgpu.md)",
                      kernelName, t->str()));
    if (!writeValue(v, t, pack.value(jit::memSize(t)))) {
      if (PyErr_Occurred()) throw pybind11::error_already_set();
      throw pybind11::type_error(fmt::format("kernel '{}': cannot convert argument {} to {}",
                                             kernelName, i + 1, t->str()));
    }
  }
}

// hip_launch(dispatcher, key, kernel, grid, block, shared, values, stream).
void launch(Dispatcher &d, const std::string &key, device::Kernel &kernel,
            const std::vector<unsigned> &grid, const std::vector<unsigned> &block, unsigned shared,
            pybind11::tuple values, pybind11::object stream) {
  if (grid.size() != 3 || block.size() != 3)
    throw pybind11::value_error("grid and block are (x, y, z)");
  device::Device &dev = deviceOf("hip");
  device::ParamPacker params(dev.paramLayout());
  pack(d, key, kernel.name, values, params);
  device::LaunchShape shape;
  for (int a = 0; a < 3; ++a) {
    shape.grid[a] = grid[size_t(a)];
    shape.block[a] = block[size_t(a)];
  }
  shape.sharedBytes = shared;
  dev.launch(kernel, shape, streamHandle(stream), params.params());
}

}  // namespace

void define_hip(pybind11::module_ &m) {
  namespace py = pybind11;
  py::class_<device::Kernel, std::shared_ptr<device::Kernel>>(m, "LoadedKernel")
      .def_property_readonly("name", [](const device::Kernel &k) { return k.name; });

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
  m.def("hip_load", [](py::bytes hsaco, const std::string &entry, const std::string &name) {
    return deviceOf("hip").load(std::string(hsaco), entry, name);
  });
  // Each parameter's bytes as hip_launch packs them (its declared size):
  // what tests compare with a code object's metadata.
  m.def("hip_pack", [](Dispatcher &d, const std::string &key, py::tuple values) {
    device::ParamPacker params(device::ParamLayout::ExtentsLast);
    pack(d, key, "(hip_pack)", values, params);
    void **p = params.params();
    py::list out;
    for (size_t i = 0; i < params.count(); ++i)
      out.append(py::bytes(static_cast<const char *>(p[i]), params.size(i)));
    return out;
  });
  m.def("hip_launch", &launch, py::arg("dispatcher"), py::arg("key"), py::arg("kernel"),
        py::arg("grid"), py::arg("block"), py::arg("shared"), py::arg("values"),
        py::arg("stream") = py::none());
}

}  // namespace kjit::py
