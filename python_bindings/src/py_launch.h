// py_launch.h - `kernel[grid, block, stream, sharedmem]` from Python values:
// the integers are read here, every rule about them is the driver's
// (runtime/jit/LaunchConfig.h). The CUDA launcher, the CPU device's and the
// simulator all parse with this.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "py_common.h"
#include "runtime/jit/LaunchConfig.h"

namespace kjit::py {

class Dispatcher;

struct ParsedLaunch {
  jit::LaunchConfig config;
  pybind11::object stream;  // the configuration's third item, or None
};

// `config` is the subscript: a tuple of 2 to 4 items (anything else counts
// as one item). Throws jit::JitError (LaunchConfigError) on a mistake.
ParsedLaunch parseLaunch(pybind11::handle config, const std::string &kernel);

// What both launcher classes (the CUDA one, the CPU device's) hold for
// Python: the kernel (a weak reference) and Numba's pre_launch_callbacks,
// each called as callback(kernel, launcher) before every launch.
struct LauncherBase {
  pybind11::object kernel;  // a weak reference to the kernel object
  pybind11::list preLaunch;
  pybind11::object subscript;  // the configuration as given (kernel[subscript])
  ParsedLaunch parsed;         // ... and as read

  void configure(pybind11::object config, const std::string &name) {
    parsed = parseLaunch(config, name);
    subscript = std::move(config);
  }
};
void runPreLaunchCallbacks(const LauncherBase &l, PyObject *launcher);
// The launcher classes' Python-side members: .args (None: no launch's
// arguments are kept), .pre_launch_callbacks, and pickling, which Numba
// refuses when there are callbacks.
template <class L>
void defineLauncherMembers(pybind11::class_<L> &cls) {
  auto dim3 = [](const uint32_t *v) { return pybind11::make_tuple(v[0], v[1], v[2]); };
  cls.def_property_readonly("args", [](const L &) { return pybind11::none(); })
      .def_property_readonly("pre_launch_callbacks", [](const L &l) { return l.preLaunch; })
      .def_property_readonly("griddim", [dim3](const L &l) { return dim3(l.parsed.config.grid); })
      .def_property_readonly("blockdim", [dim3](const L &l) { return dim3(l.parsed.config.block); })
      .def_property_readonly("sharedmem", [](const L &l) { return l.parsed.config.sharedBytes; })
      .def_property_readonly("stream",  // 0 when none was given, as Numba's
                             [](const L &l) -> pybind11::object {
                               if (l.parsed.stream.is_none()) return pybind11::int_(0);
                               return l.parsed.stream;
                             })
      // Pickled as kernel[configuration]: the kernel by value (kjit/serialize.py).
      .def("__reduce__", [](const L &l) -> pybind11::object {
        if (pybind11::len(l.preLaunch) != 0) {
          pybind11::object err = pybind11::module_::import("pickle").attr("PicklingError");
          PyErr_SetString(err.ptr(), "Cannot pickle configured launches with pre-launch callbacks");
          throw pybind11::error_already_set();
        }
        pybind11::object k = l.kernel();
        if (k.is_none())
          throw pybind11::type_error("cannot pickle a configured launch whose kernel is gone");
        return pybind11::make_tuple(pybind11::module_::import("operator").attr("getitem"),
                                    pybind11::make_tuple(k, l.subscript));
      });
}

// tp_call of a launcher class L (the CUDA one, the CPU device's): from the
// interpreter's call straight to L::call(args), without pybind11's generic
// argument handling.
template <class L>
PyObject *launcherCall(PyObject *self, PyObject *args, PyObject *kwargs) {
  try {
    if (kwargs && PyDict_GET_SIZE(kwargs) != 0) {
      PyErr_SetString(PyExc_TypeError, "kernels take positional arguments only");
      return nullptr;
    }
    auto *inst = reinterpret_cast<pybind11::detail::instance *>(self);
    auto *l = inst->get_value_and_holder().value_ptr<L>();
    if (!l) {
      PyErr_SetString(PyExc_TypeError, "kjit launcher used before __init__");
      return nullptr;
    }
    if (PyList_GET_SIZE(l->preLaunch.ptr()) != 0) runPreLaunchCallbacks(*l, self);
    l->call(args);
    Py_RETURN_NONE;
  } catch (...) {
    setErrorFromCurrentException();
  }
  return nullptr;
}

// A launch whose argument type key `key` has no compiled kernel. Where the
// kernel's _compile_for_args (Numba's dispatcher method) is replaced, by a
// subclass of CUDAKernel or on the object (launchconfig's
// capture_compile_config wraps it), calls it as Numba does, with the
// launch's configuration current on this thread (kjit.cuda.launchconfig),
// and returns true. Otherwise returns false without entering Python: the
// caller's lookup compiles, in C++. `kernel` is a weak reference to the
// kernel object; a kernel gone compiles nothing here.
bool compileForLaunch(pybind11::handle kernel, const std::string &key, const jit::LaunchConfig &c,
                      pybind11::handle stream, PyObject *args);

// Whether the kernel object's class or the object itself replaces CUDAKernel's
// method `method` (the class attribute _kjit_original<method> names CUDAKernel's
// own): read from the type's and the object's dictionaries, calling nothing.
bool kernelOverrides(PyObject *kernel, const char *method);

// The CPU device's launcher of a kernel (its dispatcher) for `config`
// (a tuple), as _kjit.CpuLauncher(dispatcher, config, kernelRef) makes it;
// `parsed` receives the configuration read.
pybind11::object makeCpuLauncher(std::shared_ptr<Dispatcher> d, pybind11::object config,
                                 pybind11::object kernelRef, jit::LaunchConfig &parsed);

// An exception a kernel's thread raised (the CPU device's, or one a GPU
// kernel recorded), raised in Python as Numba does: of its class
// (exceptionClass), its message after "In function 'k', file F, line L,
// tid=[x, y, z] ctaid=[x, y, z]"; its .kernel, .thread, .block and .lineno
// say the same.
struct KernelException {
  std::string excClass, message, kernel, file;
  int line = 0;
  int32_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};
std::string kernelExceptionText(const KernelException &e);
[[noreturn]] void raiseKernelException(const KernelException &e);

void define_launch(pybind11::module_ &m);

}  // namespace kjit::py
