// py_launch.cpp - launch configurations from Python values (py_launch.h),
// the CPU device's launcher, and the simulator's access to the same rules.
#include "py_launch.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>

#include "py_common.h"
#include "py_device.h"
#include "py_dispatcher.h"
#include "runtime/host/CpuKernel.h"
#include "runtime/host/HostDevice.h"
#include "runtime/host/ThreadPool.h"
#include "runtime/jit/Errors.h"

namespace kjit::py {

namespace {

bool PyArray_CheckExact_(PyObject *o) {
  return Py_TYPE(o) == pybind11::detail::npy_api::get().PyArray_Type_;
}

bool isIndex(PyObject *o) { return PyIndex_Check(o) && !PyBool_Check(o); }

int64_t indexValue(PyObject *o) {
  PyObject *idx = PyNumber_Index(o);
  if (!idx) throw pybind11::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  return overflow ? (overflow > 0 ? INT64_MAX : INT64_MIN) : v;
}

// The items of a grid or block as Numba's messages list them: "[1, 2.0]".
std::string itemList(pybind11::handle v) {
  if (!PyTuple_Check(v.ptr()) && !PyList_Check(v.ptr()))
    return "[" + pybind11::repr(v).cast<std::string>() + "]";
  return pybind11::repr(pybind11::list(pybind11::reinterpret_borrow<pybind11::object>(v)))
      .cast<std::string>();
}

void readDims(pybind11::handle v, uint32_t out[3], const char *what, const std::string &kernel) {
  int64_t n[3];
  size_t count = 0;
  if (isIndex(v.ptr())) {
    n[count++] = indexValue(v.ptr());
  } else if (PyTuple_Check(v.ptr()) || PyList_Check(v.ptr())) {
    pybind11::sequence s = pybind11::reinterpret_borrow<pybind11::sequence>(v);
    if (s.size() < 1 || s.size() > 3)
      jit::setDims(out, n, s.size(), what, kernel, itemList(v));  // says why
    for (pybind11::handle item : s) {
      if (!isIndex(item.ptr()))
        jit::badDimension(what, pybind11::repr(v).cast<std::string>(), itemList(v), kernel);
      n[count++] = indexValue(item.ptr());
    }
  } else {
    jit::badDimension(what, pybind11::repr(v).cast<std::string>(), itemList(v), kernel);
  }
  jit::setDims(out, n, count, what, kernel);
}

}  // namespace

ParsedLaunch parseLaunch(pybind11::handle config, const std::string &kernel) {
  ParsedLaunch p;
  p.stream = pybind11::none();
  if (!PyTuple_Check(config.ptr())) {
    jit::checkItemCount(1, kernel);  // says what a configuration is
  }
  pybind11::tuple t = pybind11::reinterpret_borrow<pybind11::tuple>(config);
  jit::checkItemCount(t.size(), kernel);
  readDims(t[0], p.config.grid, "grid", kernel);
  readDims(t[1], p.config.block, "block", kernel);
  if (t.size() > 2) p.stream = t[2];
  if (t.size() > 3) {
    if (!isIndex(t[3].ptr()))
      throw jit::launchConfigError(
          fmt::format("kernel '{}': the dynamic shared memory size is an int, not {}", kernel,
                      pybind11::repr(t[3]).cast<std::string>()));
    jit::setSharedBytes(p.config, indexValue(t[3].ptr()), kernel);
  }
  return p;
}

namespace {

const char *kCpuDevice = "the CPU device";

// kernel[config] on the CPU device: the blocks run on kjit's thread pool,
// each block's threads as a loop or, when the kernel synchronises, as
// fibers. The launch is synchronous; the limits are a GPU's.
class CpuLauncher : public LauncherBase {
 public:
  CpuLauncher(std::shared_ptr<Dispatcher> d, pybind11::object config, pybind11::object kernelRef)
      : d_(std::move(d)) {
    kernel = std::move(kernelRef);
    configure(config, d_->name());
    launch_ = parsed.config;
    stream_ = parsed.stream;
  }

  void call(PyObject *args) {
    jit::JitFunction &fn = d_->function();
    size_t n = size_t(PyTuple_GET_SIZE(args));
    if (n != fn.paramCount())
      throw pybind11::type_error(fmt::format("kernel {}() takes {} arguments but {} were given",
                                             fn.name(), fn.paramCount(), n));
    if (n > kMaxArgs)
      throw pybind11::type_error(fmt::format("kjit kernels take at most {} arguments", kMaxArgs));
    PyObject *argv[kMaxArgs];
    std::vector<pybind11::object> held;  // the host arrays of the CPU device's device arrays
    for (size_t i = 0; i < n; ++i) {
      argv[i] = PyTuple_GET_ITEM(args, Py_ssize_t(i));
      // A device array of the CPU device (kjit/hostapi) is host memory: a
      // NumPy view of it.
      if (PyArray_CheckExact_(argv[i])) continue;
      if (asDeviceArray(argv[i])) {
        held.push_back(DeviceArray::hostView(argv[i]));
        argv[i] = held.back().ptr();
      } else if (!pybind11::isinstance<pybind11::array>(argv[i]) &&
                 PyObject_HasAttrString(argv[i], "__cuda_array_interface__")) {
        // Another library's array (here, host memory): a view, its stream
        // synchronised first as Numba's consumers do (kjit/cuda/interface.py).
        pybind11::object view = pybind11::module_::import("kjit.hostapi")
                                    .attr("as_cuda_array")(pybind11::handle(argv[i]));
        held.push_back(DeviceArray::hostView(view));
        argv[i] = held.back().ptr();
      }
    }
    std::string key = d_->argumentKey(argv, n, true);
    if (!fn.cpuKernels().find(key) && !compileForLaunch(kernel, key, launch_, stream_, args))
      d_->flushCpuDeclared();  // (what _compile_for_args does first)
    size_t before = fn.cpuKernels().all().size();
    const jit::CompileResult &c = fn.cpuKernelFor(key);
    if (fn.cpuKernels().all().size() > before) {  // compiled here: the warnings at the launch
      warnPerformance(c.warnings, 1);
      warnCache(c.cacheWarning, 1);
    }
    jit::KernelLimits k;
    k.maxThreadsPerBlock = fn.options().cuda.maxThreads;
    k.why = "its launch_bounds";
    k.staticSharedBytes = c.cpuKernel->staticSharedBytes;
    jit::checkLaunch(launch_, jit::DeviceLimits::gpuLike(kCpuDevice), k, fn.name());
    Marshalled m;
    marshal(c, argv, n, m, jit::Caller{fn.name(), true});
    // Launched through the device layer (runtime/host/HostDevice.h): the
    // blocks run on the JIT runtime's thread pool.
    host::HostKernel hk;
    hk.name = fn.name();
    hk.info = c.cpuKernel;
    device::LaunchShape shape;
    for (int a = 0; a < 3; ++a) {
      shape.grid[a] = launch_.grid[a];
      shape.block[a] = launch_.block[a];
    }
    shape.sharedBytes = uint32_t(launch_.sharedBytes);
    try {
      pybind11::gil_scoped_release release;
      dev_.launch(hk, shape, nullptr, m.ptrs);
    } catch (const host::KernelFailed &f) {
      raiseKernelError(f.error, fn.name());
    }
  }

 private:
  std::shared_ptr<Dispatcher> d_;
  device::Device &dev_ = deviceOf("cpu");  // the device layer's CPU device (the module's)
  jit::LaunchConfig launch_;
  pybind11::object stream_;

  static void raiseKernelError(const CpuKernelError &e, const std::string &kernel) {
    if (!e.located) {  // the launch failed, not a thread
      pybind11::object cls = exceptionClass(e.excClass);
      PyErr_SetObject(cls.ptr(), cls(fmt::format("{} (in kernel '{}')", e.message, kernel)).ptr());
      throw pybind11::error_already_set();
    }
    KernelException k{e.excClass, e.message, kernel, e.file, e.line};
    for (int a = 0; a < 3; ++a) {
      k.thread[a] = e.thread[a];
      k.block[a] = e.block[a];
    }
    raiseKernelException(k);
  }
};

std::array<uint32_t, 3> dims3(const uint32_t d[3]) { return {d[0], d[1], d[2]}; }

}  // namespace

void runPreLaunchCallbacks(const LauncherBase &l, PyObject *launcher) {
  pybind11::object k = l.kernel();
  for (pybind11::handle cb : pybind11::list(l.preLaunch)) cb(k, pybind11::handle(launcher));
}

bool kernelOverrides(PyObject *kernel, const char *method) {
  pybind11::str name(method), original(std::string("_kjit_original") + method);
  PyTypeObject *tp = Py_TYPE(kernel);
  PyObject *own = _PyType_Lookup(tp, name.ptr());
  if (!own || own != _PyType_Lookup(tp, original.ptr())) return true;
  PyObject **dict = _PyObject_GetDictPtr(kernel);
  if (!dict || !*dict) return false;
  if (PyDict_GetItemWithError(*dict, name.ptr())) return true;
  if (PyErr_Occurred()) throw pybind11::error_already_set();
  return false;
}

bool compileForLaunch(pybind11::handle kernel, const std::string &key, const jit::LaunchConfig &c,
                      pybind11::handle stream, PyObject *args) {
  pybind11::object k = kernel();
  if (k.is_none() || !kernelOverrides(k.ptr(), "_compile_for_args")) return false;
  pybind11::module_::import("kjit.cuda.launchconfig")
      .attr("_compile_for_launch")(k, key, dims3(c.grid), dims3(c.block),
                                   stream.is_none()
                                       ? pybind11::object(pybind11::int_(0))
                                       : pybind11::reinterpret_borrow<pybind11::object>(stream),
                                   c.sharedBytes, pybind11::handle(args));
  return true;
}

pybind11::object makeCpuLauncher(std::shared_ptr<Dispatcher> d, pybind11::object config,
                                 pybind11::object kernelRef, jit::LaunchConfig &parsed) {
  auto l = std::make_unique<CpuLauncher>(std::move(d), std::move(config), std::move(kernelRef));
  parsed = l->parsed.config;
  pybind11::object o = pybind11::cast(l.get(), pybind11::return_value_policy::take_ownership);
  l.release();  // (the Python object owns it)
  return o;
}

std::string kernelExceptionText(const KernelException &e) {
  std::string text = fmt::format("In function '{}', ", e.kernel);
  if (!e.file.empty()) text += fmt::format("file {}, line {}, ", e.file, e.line);
  text += fmt::format("tid=[{}, {}, {}] ctaid=[{}, {}, {}]", e.thread[0], e.thread[1], e.thread[2],
                      e.block[0], e.block[1], e.block[2]);
  if (!e.message.empty()) text += ": " + e.message;
  return text;
}

void raiseKernelException(const KernelException &e) {
  pybind11::object cls = exceptionClass(e.excClass);
  pybind11::object exc = cls(kernelExceptionText(e));
  try {
    exc.attr("kernel") = e.kernel;
    exc.attr("thread") = pybind11::make_tuple(e.thread[0], e.thread[1], e.thread[2]);
    exc.attr("block") = pybind11::make_tuple(e.block[0], e.block[1], e.block[2]);
    exc.attr("lineno") = e.line;
  } catch (const pybind11::error_already_set &) {
    // an exception class without a __dict__: the message says the same
  }
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw pybind11::error_already_set();
}

void define_launch(pybind11::module_ &m) {
  namespace py = pybind11;
  auto cpu = py::class_<CpuLauncher>(m, "CpuLauncher")
                 .def(py::init<std::shared_ptr<Dispatcher>, py::object, py::object>());
  defineLauncherMembers(cpu);
  reinterpret_cast<PyTypeObject *>(cpu.ptr())->tp_call = launcherCall<CpuLauncher>;
  // The simulator: the same parsing and the same checks.
  m.def(
      "launch_config",
      [](const std::string &kernel, py::object config) {
        ParsedLaunch p = parseLaunch(config, kernel);
        return py::make_tuple(dims3(p.config.grid), dims3(p.config.block), p.stream,
                              p.config.sharedBytes);
      },
      py::arg("kernel"), py::arg("config"),
      "(grid, block, stream, shared bytes) of kernel[config], or LaunchConfigError");
  m.def(
      "kernel_exception_text",
      [](const std::string &kernel, const std::string &file, int line,
         std::array<int32_t, 3> thread, std::array<int32_t, 3> block, const std::string &message) {
        KernelException e{"", message, kernel, file, line};
        for (size_t a = 0; a < 3; ++a) {
          e.thread[a] = thread[a];
          e.block[a] = block[a];
        }
        return kernelExceptionText(e);
      },
      py::arg("kernel"), py::arg("file"), py::arg("line"), py::arg("thread"), py::arg("block"),
      py::arg("message"),
      "the message of an exception a kernel's thread raised, as every device writes it");
  m.def(
      "check_launch",
      [](const std::string &kernel, const std::string &device, std::array<uint32_t, 3> grid,
         std::array<uint32_t, 3> block, size_t shared, int64_t maxThreads, int64_t staticShared) {
        jit::LaunchConfig c;
        for (int a = 0; a < 3; ++a) {
          c.grid[a] = grid[size_t(a)];
          c.block[a] = block[size_t(a)];
        }
        c.sharedBytes = shared;
        jit::KernelLimits k;
        k.maxThreadsPerBlock = maxThreads;
        k.why = "its launch_bounds";
        k.staticSharedBytes = staticShared;
        jit::checkLaunch(c, jit::DeviceLimits::gpuLike(device), k, kernel);
      },
      py::arg("kernel"), py::arg("device"), py::arg("grid"), py::arg("block"), py::arg("shared"),
      py::arg("max_threads") = 0, py::arg("static_shared") = 0,
      "checks a launch against a GPU's limits (the CPU device and the simulator keep them)");
}

}  // namespace kjit::py
