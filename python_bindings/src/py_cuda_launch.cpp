// py_cuda_launch.cpp - the CUDA launch path: `kernel[grid, block](args)`.
//
// kernel[config] finds the launcher cached for the configuration without
// entering Python (KernelBase's mp_subscript). Launcher::call computes the
// argument type key, asks the driver for the loaded kernel (runtime/jit/
// CudaKernels.h: a miss compiles and loads there, in C++), writes the
// parameters and calls cuLaunchKernel without going back to Python per
// argument. Device arrays are a C++ base class (DeviceArray) that the
// Python DeviceNDArray extends, so their pointer, shape and strides are read
// directly.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <vector>

#include "py_common.h"
#include "py_cuda.h"
#include "py_dispatcher.h"
#include "py_launch.h"
#include "py_values.h"
#include "runtime/cuda/CudaRuntime.h"
#include "runtime/device/Params.h"
#include "runtime/jit/CudaKernels.h"
#include "runtime/jit/Errors.h"

namespace kjit::py {

using cuda::CUstream;

namespace {

// A host array (or a record argument's bytes) copied to the device for a
// launch, and back after it.
struct HostCopy {
  pybind11::object host;        // what to copy back into (null: read-only)
  pybind11::object contiguous;  // the contiguous array copied
  std::shared_ptr<device::Memory> mem;
  size_t bytes = 0;
};

// One argument's device view: pointer, shape, strides.
struct ArrayView {
  uint64_t ptr = 0;
  int nd = 0;
  int64_t shape[kMaxDims], strides[kMaxDims];
};

class Launcher : public LauncherBase {
 public:
  Launcher(std::shared_ptr<jit::CudaKernels> core, pybind11::object config,
           pybind11::object kernelRef)
      : core_(std::move(core)), dev_(cudaDevice()) {
    kernel = std::move(kernelRef);
    configure(config, core_->name());
    const ParsedLaunch &p = parsed;
    config_ = p.config;
    streamObj_ = p.stream;
    if (!p.stream.is_none() &&
        !(PyLong_Check(p.stream.ptr()) && PyLong_AsLongLong(p.stream.ptr()) == 0))
      stream_ = streamOf(p.stream);
  }

  void call(PyObject *args) {
    size_t n = size_t(PyTuple_GET_SIZE(args));
    if (n > kMaxArgs)
      throw pybind11::type_error(fmt::format("kernels take at most {} arguments", kMaxArgs));
    std::string key;
    ArrayView views[kMaxArgs];
    PyObject *scalars[kMaxArgs];
    std::vector<HostCopy> copies;
    std::vector<pybind11::object> keep;  // CAI/DLPack owners for the launch
    for (size_t i = 0; i < n; ++i) {
      PyObject *o = PyTuple_GET_ITEM(args, Py_ssize_t(i));
      scalars[i] = o;
      if (DeviceArray *d = asDeviceArray(o)) {
        if (!d->alive())
          throw pybind11::value_error(
              fmt::format("argument {} of kernel '{}' is a device array of a CUDA context "
                          "that was lost or closed",
                          i + 1, core_->name()));
        if (d->dkey.empty()) {
          std::string why;
          dtypeKeyOf(d->dtype.ptr(), &why);
          throw pybind11::type_error(
              fmt::format("argument {} of kernel '{}': device arrays of dtype {} and {} "
                          "dimensions cannot be kernel arguments{}",
                          i + 1, core_->name(), pybind11::str(d->dtype).cast<std::string>(), d->nd,
                          why.empty() ? "" : " (" + why + ")"));
        }
        viewOf(*d, views[i]);
        if (d->code)
          jit::appendArrayKey(key, d->code, d->nd, d->layout(), d->readonly);
        else  // an array of records
          jit::appendArrayKey(key, d->dkey, d->nd, d->layout(), d->readonly);
        continue;
      }
      if (appendScalarKey(o, key)) continue;
      arrayArgument(o, i, key, views[i], copies, keep);
    }
    rt().activate();
    const jit::CompileResult *compiled = nullptr;
    jit::LoadedEntry *hit = core_->find(rt(), key);
    if (!hit && !core_->compiled(rt(), key))
      compileForLaunch(kernel, key, config_, streamObj_, args);
    jit::LoadedEntry &e = hit ? *hit : core_->entry(rt(), key, &compiled);
    if (compiled) {  // compiled here: the warnings at the launch
      warnPerformance(compiled->warnings, 1);
      warnCache(compiled->cacheWarning, 1);
    }
    core_->prepareLaunch(rt(), e, config_, checkedSerial_);
    // Parameters: arrays flattened (pointer, shape, strides), scalars in
    // zeroed 8-byte slots (NVPTX may widen small integer parameters).
    device::ParamPacker pack(device::ParamLayout::Interleaved);
    for (size_t i = 0; i < n; ++i) {
      const Type *t = e.compiled->args[i];
      if (t->isRecord()) {
        uint64_t address = recordArgument(scalars[i], t, copies);
        std::memcpy(pack.value(8), &address, 8);
        continue;
      }
      if (holdsArray(t)) {
        writeTupleOfArrays(scalars[i], t, pack.value(jit::memSize(t)), i, copies, keep);
        continue;
      }
      if (holdsRecord(t))
        throw pybind11::type_error(
            fmt::format("argument {} of kernel '{}': a tuple that holds records cannot be a "
                        "kernel argument on the GPU; pass the records as arguments of their own",
                        i + 1, core_->name()));
      if (t->isArray()) {
        pack.array(views[i].ptr, views[i].nd, views[i].shape, views[i].strides);
        continue;
      }
      if (t->isTuple() && jit::memSize(t) == 0) continue;  // (), ((), ()): no parameter
      if (!writeValue(scalars[i], t, pack.value(jit::memSize(t)))) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        throw pybind11::type_error(fmt::format("kernel '{}': cannot convert argument {} to {}",
                                               core_->name(), i + 1, t->str()));
      }
    }
    device::LaunchShape shape;
    for (int a = 0; a < 3; ++a) {
      shape.grid[a] = config_.grid[a];
      shape.block[a] = config_.block[a];
    }
    shape.sharedBytes = unsigned(config_.sharedBytes);
    dev_.launch(*e.kernel, shape, stream_, pack.params());
    // debug=True: the launch waits and raises what a thread raised (as Numba).
    if (core_->function().options().cuda.debug)
      rt().checkSync(rt().api().StreamSynchronize(stream_), "cuStreamSynchronize");
    for (HostCopy &c : copies) {
      if (!c.host) continue;
      copyOut(dev_, c.contiguous, c.mem->address, c.bytes, stream_);
      if (!c.host.is(c.contiguous))
        pybind11::module_::import("numpy").attr("copyto")(c.host, c.contiguous);
    }
  }

 private:
  std::shared_ptr<jit::CudaKernels> core_;
  cuda::CudaDevice &dev_;  // the device layer's CUDA device (the module's)
  jit::LaunchConfig config_;
  CUstream stream_ = nullptr;
  pybind11::object streamObj_;  // keeps a stream alive while the launcher is cached
  uint64_t checkedSerial_ = 0;  // the entry the configuration was last checked for

  std::string paramName(size_t i) const {
    const std::vector<std::string> &p = core_->function().source()->paramNames;
    return i < p.size() ? p[i] : std::string();
  }

  static bool holdsArray(const Type *t) {
    if (!t->isTuple()) return false;
    for (const Type *e : t->elements())
      if (e->isArray() || holdsArray(e)) return true;
    return false;
  }

  // A tuple that holds arrays, in the memory form @jit gives it
  // (py_values.cpp writeValue), each array's descriptor pointing at device
  // memory: a host array's copy made for this launch (copied back after it,
  // as a host array argument is), or another library's device array.
  void writeTupleOfArrays(PyObject *o, const Type *t, unsigned char *dst, size_t i,
                          std::vector<HostCopy> &copies, std::vector<pybind11::object> &keep) {
    if (t->isArray()) {
      ArrayView v;
      std::string key;
      if (DeviceArray *d = asDeviceArray(o))
        viewOf(*d, v);
      else
        arrayArgument(o, i, key, v, copies, keep);
      auto *p = reinterpret_cast<int64_t *>(dst);
      p[0] = 0;  // no meminfo on the GPU
      std::memcpy(&p[1], &v.ptr, 8);
      for (int k = 0; k < v.nd; ++k) p[2 + k] = v.shape[k], p[2 + v.nd + k] = v.strides[k];
      return;
    }
    if (!t->isTuple()) {
      if (!writeValue(o, t, dst)) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        throw pybind11::type_error(fmt::format("kernel '{}': cannot convert argument {} to {}",
                                               core_->name(), i + 1, t->str()));
      }
      return;
    }
    size_t off = 0;
    for (size_t k = 0; k < t->elements().size(); ++k) {
      const Type *e = t->elements()[k];
      size_t align = jit::memAlign(e);
      off = (off + align - 1) / align * align;
      writeTupleOfArrays(PyTuple_GET_ITEM(o, Py_ssize_t(k)), e, dst + off, i, copies, keep);
      off += jit::memSize(e);
    }
  }

  static bool holdsRecord(const Type *t) {
    if (t->isRecord()) return true;
    if (t->isTuple())
      for (const Type *e : t->elements())
        if (holdsRecord(e)) return true;
    return false;
  }

  // A record argument (a NumPy structured scalar): its bytes copied to the
  // device for the launch and back after it, as numba-cuda does; returns
  // the device copy's address.
  uint64_t recordArgument(PyObject *o, const Type *t, std::vector<HostCopy> &copies) {
    HostCopy c;
    c.bytes = size_t(t->recordSize());
    c.host = pybind11::memoryview::from_memory(recordBytes(o), pybind11::ssize_t(c.bytes));
    c.contiguous = c.host;
    c.mem = rt().allocate(std::max<size_t>(c.bytes, 1), cuda::Allocation::Kind::Device);
    copyIn(dev_, c.mem->address, c.host, c.bytes, stream_);
    copies.push_back(c);
    return c.mem->address;
  }

  static void viewOf(const DeviceArray &d, ArrayView &v) {
    v.ptr = d.ptr;
    v.nd = d.nd;
    std::memcpy(v.shape, d.shape, sizeof(int64_t) * size_t(d.nd));
    std::memcpy(v.strides, d.strides, sizeof(int64_t) * size_t(d.nd));
  }
  // Numbers, NumPy scalars, tuples of them (named tuples too), IntEnum
  // members: as @jit types them.
  static bool appendScalarKey(PyObject *o, std::string &key) {
    if (PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o) || PyTuple_Check(o) ||
        PyObject_TypeCheck(o, &PyGenericArrType_Type())) {
      size_t mark = key.size();
      if (appendKey(o, key)) return true;
      key.resize(mark);
      PyErr_Clear();
    }
    return false;
  }
  static PyTypeObject &PyGenericArrType_Type() {
    static PyTypeObject *t =
        reinterpret_cast<PyTypeObject *>(pybind11::module_::import("numpy").attr("generic").ptr());
    return *t;
  }

  void arrayArgument(PyObject *o, size_t i, std::string &key, ArrayView &v,
                     std::vector<HostCopy> &copies, std::vector<pybind11::object> &keep) {
    pybind11::handle h(o);
    auto &npy = pybind11::detail::npy_api::get();
    bool isNumpy = npy.PyArray_Check_(o);
    // Device memory of another library, or a kjit mapped/managed array.
    if (!isNumpy || Py_TYPE(o) != npy.PyArray_Type_) {
      if (PyObject_HasAttrString(o, "__cuda_array_interface__")) {
        cudaArrayInterface(
            pybind11::reinterpret_borrow<pybind11::object>(h).attr("__cuda_array_interface__"), i,
            key, v);
        return;
      }
      if (!isNumpy && PyObject_HasAttrString(o, "__dlpack__")) {
        int streamArg = stream_ ? int(reinterpret_cast<uintptr_t>(stream_)) : 1;
        pybind11::tuple r = importDlpack(pybind11::reinterpret_borrow<pybind11::object>(h),
                                         pybind11::int_(streamArg));
        pybind11::tuple dev = r[4];
        int dtype = dev[0].cast<int>();
        if (dtype != kDLCUDA && dtype != kDLCUDAManaged && dtype != kDLCUDAHost)
          throw pybind11::type_error(
              fmt::format("argument {} of kernel '{}' is a DLPack tensor on a device of type "
                          "{}, not CUDA memory",
                          i + 1, core_->name(), dtype));
        keep.push_back(r[5]);
        fromParts(r[0].cast<uint64_t>(), r[1], r[2], pybind11::dtype::from_args(r[3]), false, i,
                  key, v);
        return;
      }
    }
    if (!isNumpy) {
      // Other values @jit types (enum members): their keys. (Not lists:
      // kernels cannot take them.)
      size_t mark = key.size();
      if (!PyList_Check(o) && !PyUnicode_Check(o) && appendKey(o, key)) return;
      key.resize(mark);
      PyErr_Clear();
      throw jit::typeError(
          jit::cannotTakeMessage("kernel '" + core_->name() + "'", i, paramName(i), typeNameOf(o)) +
          whyNoKey(o));
    }
    // A host array: copied in, launched on, copied back (as Numba does).
    if (!core_->warnedCopy) {
      core_->warnedCopy = true;
      pybind11::object cat = pybind11::module_::import("kjit.errors").attr("PerformanceWarning");
      std::string msg = fmt::format(
          "kernel '{}': a NumPy array argument is copied to the device and back at every "
          "launch; pass device arrays (cuda.to_device) to avoid the copies",
          core_->name());
      if (PyErr_WarnEx(cat.ptr(), msg.c_str(), 2) != 0) throw pybind11::error_already_set();
    }
    pybind11::array arr = pybind11::reinterpret_borrow<pybind11::array>(h);
    auto *proxy = pybind11::detail::array_proxy(o);
    constexpr int C_CONTIG = 0x1, F_CONTIG = 0x2, WRITEABLE = 0x400;
    bool writable = proxy->flags & WRITEABLE;
    pybind11::array contiguous =
        (proxy->flags & (C_CONTIG | F_CONTIG))
            ? arr
            : pybind11::array(pybind11::module_::import("numpy").attr("ascontiguousarray")(arr));
    HostCopy c;
    c.bytes = size_t(contiguous.nbytes());
    c.mem = rt().allocate(c.bytes, cuda::Allocation::Kind::Device);
    copyIn(dev_, c.mem->address, contiguous, c.bytes, stream_);
    c.contiguous = contiguous;
    if (writable) c.host = arr;
    pybind11::tuple shape(size_t(contiguous.ndim())), strides(size_t(contiguous.ndim()));
    for (size_t k = 0; k < size_t(contiguous.ndim()); ++k) {
      shape[k] = contiguous.shape()[k];
      strides[k] = contiguous.strides()[k];
    }
    fromParts(c.mem->address, shape, strides, contiguous.dtype(), !writable, i, key, v);
    copies.push_back(std::move(c));
  }

  // __cuda_array_interface__ v3 (v2 accepted): a view, no copy. When the
  // producer names a stream, this launch's stream waits for it.
  void cudaArrayInterface(pybind11::dict cai, size_t i, std::string &key, ArrayView &v) {
    if (cai.contains("mask") && !pybind11::object(cai["mask"]).is_none())
      throw pybind11::type_error(fmt::format(
          "argument {} of kernel '{}': masked arrays are not supported", i + 1, core_->name()));
    pybind11::tuple shape = cai["shape"];
    pybind11::object typestr = cai["typestr"];
    pybind11::dtype dt =
        typestr.equal(pybind11::str("<V2"))  // bfloat16 (kjit/bfloat16_host.py)
            ? pybind11::dtype(pybind11::module_::import("kjit.bfloat16_host").attr("dtype")())
            : pybind11::dtype::from_args(typestr);
    pybind11::tuple data = cai["data"];
    pybind11::object strides =
        cai.contains("strides") ? pybind11::object(cai["strides"]) : pybind11::none();
    pybind11::tuple st(shape.size());
    if (strides.is_none()) {
      int64_t expect = dt.itemsize();
      for (size_t k = shape.size(); k-- > 0;) {
        st[k] = expect;
        expect *= shape[k].cast<int64_t>();
      }
    } else {
      st = strides;
    }
    if (cai.contains("stream")) {
      pybind11::object s = cai["stream"];
      if (!s.is_none()) {
        auto producer = reinterpret_cast<CUstream>(uintptr_t(s.cast<unsigned long long>()));
        if (producer != stream_) waitFor(producer);
      }
    }
    fromParts(data[0].cast<uint64_t>(), shape, st, dt, data[1].cast<bool>(), i, key, v);
  }

  // This launch's stream waits for the work queued on `producer`.
  void waitFor(CUstream producer) {
    static cuda::CUevent ev = nullptr;
    static uint64_t evGeneration = 0;
    const cuda::Api &api = rt().api();
    if (!ev || evGeneration != rt().generation(rt().current())) {
      rt().check(api.EventCreate(&ev, 2 /* CU_EVENT_DISABLE_TIMING */), "cuEventCreate");
      evGeneration = rt().generation(rt().current());
    }
    rt().check(api.EventRecord(ev, producer), "cuEventRecord");
    rt().check(api.StreamWaitEvent(stream_, ev, 0), "cuStreamWaitEvent");
  }

  void fromParts(uint64_t ptr, pybind11::tuple shape, pybind11::tuple strides,
                 const pybind11::dtype &dt, bool readonly, size_t i, std::string &key,
                 ArrayView &v) {
    if (shape.size() > size_t(kMaxDims))  // (0-d arrays are arrays: a[()])
      throw pybind11::type_error(
          fmt::format("argument {} of kernel '{}': arrays of 0 to {} dimensions", i + 1,
                      core_->name(), kMaxDims));
    std::string why;
    const std::string &dkey = dtypeKeyOf(dt.ptr(), &why);
    if (dkey.empty())
      throw pybind11::type_error(
          fmt::format("argument {} of kernel '{}': unsupported dtype {}{}", i + 1, core_->name(),
                      pybind11::str(pybind11::handle(dt)).cast<std::string>(),
                      dt.attr("names").is_none() ? "" : " (" + why + ")"));
    v.ptr = ptr;
    v.nd = int(shape.size());
    for (int k = 0; k < v.nd; ++k) {
      v.shape[k] = shape[size_t(k)].cast<int64_t>();
      v.strides[k] = strides[size_t(k)].cast<int64_t>();
    }
    jit::appendArrayKey(key, dkey, v.nd,
                        DeviceArray::layoutOf(v.nd, v.shape, v.strides, dt.itemsize()), readonly);
  }

  // The configuration against the device's and the kernel's limits.
};

// The base of CUDAKernel: `kernel[config]` finds the launcher cached for the
// configuration without entering Python (mp_subscript); a configuration not
// seen before gets a launcher made here (newLauncher), or in the rarer cases
// from CUDAKernel._launcher_for.
struct KernelBase {
  pybind11::dict launchers;
};
PyObject *kernelBaseType = nullptr;

constexpr size_t kMaxLaunchers = 64;  // cached per kernel (rememberLauncher)

// A module's global, borrowed; null when the module is not imported or
// lacks it. (A dictionary read: no Python code runs.)
PyObject *moduleGlobal(const char *module, const char *name) {
  PyObject *m = PyImport_GetModule(pybind11::str(module).ptr());
  if (!m) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject *v = PyModule_Check(m) ? PyDict_GetItemString(PyModule_GetDict(m), name) : nullptr;
  Py_DECREF(m);  // (the module stays in sys.modules)
  return v;
}

// The one rule of a kernel's launchers, which newLauncher and
// CUDAKernel._launcher_for (every other device) both follow: cached by
// configuration in the kernel's `launchers`, 64 at most (then forgotten
// together), an unhashable configuration not cached; and Numba's warning
// for a grid of fewer than 128 blocks when
// kjit.config.CUDA_LOW_OCCUPANCY_WARNINGS is on, at the Python frame
// `stacklevel` up.
void rememberLauncher(PyObject *launchers, PyObject *cfg, PyObject *launcher,
                      const std::string &name, const uint32_t grid[3], int stacklevel) {
  if (size_t(PyDict_GET_SIZE(launchers)) >= kMaxLaunchers) PyDict_Clear(launchers);
  if (PyDict_SetItem(launchers, cfg, launcher) != 0) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw pybind11::error_already_set();
    PyErr_Clear();  // an unhashable configuration: not cached
  }
  PyObject *warn = moduleGlobal("kjit.config", "CUDA_LOW_OCCUPANCY_WARNINGS");
  int warnOn = warn ? PyObject_IsTrue(warn) : 0;
  if (warnOn < 0) throw pybind11::error_already_set();
  if (!warnOn) return;
  uint64_t blocks = uint64_t(grid[0]) * grid[1] * grid[2];
  if (blocks >= 128) return;
  pybind11::object category = pybind11::module_::import("kjit.errors").attr("PerformanceWarning");
  std::string msg = fmt::format(
      "Grid size {} will likely result in GPU under-utilization due to low occupancy (kernel "
      "'{}')",
      blocks, name);
  if (PyErr_WarnEx(category.ptr(), msg.c_str(), stacklevel) != 0)
    throw pybind11::error_already_set();
}

// What CUDAKernel._launcher_for does, for the CPU device and a CUDA GPU,
// without entering Python: the launcher for `config`, cached in the kernel's
// launchers (64 at most; an unhashable configuration is not cached), and
// Numba's low-occupancy warning when kjit.config.CUDA_LOW_OCCUPANCY_WARNINGS
// is on. Null without an error where _launcher_for makes it: a device
// function (its error), a class or object that replaces _launcher_for, the
// HIP device, no device, and a process's first launch (kjit.devices decides
// the device there).
PyObject *newLauncher(PyObject *self, KernelBase &k, PyObject *config) {
  if (kernelOverrides(self, "_launcher_for")) return nullptr;
  PyObject **dict = _PyObject_GetDictPtr(self);
  if (!dict || !*dict) return nullptr;
  PyObject *device = PyDict_GetItemString(*dict, "device");
  PyObject *dispatcher = PyDict_GetItemString(*dict, "_dispatcher");
  PyObject *core = PyDict_GetItemString(*dict, "_core");
  PyObject *kind = moduleGlobal("kjit.devices", "_compiled");
  if (device != Py_False || !dispatcher || !kind || !PyUnicode_Check(kind)) return nullptr;
  std::string where = pybind11::str(kind);
  bool cpu = where == "cpu";
  if (!cpu && !(where == "cuda" && core && core != Py_None && rt().available())) return nullptr;
  pybind11::object cfg = pybind11::reinterpret_borrow<pybind11::object>(config);
  if (!PyTuple_Check(config)) cfg = pybind11::make_tuple(cfg);
  PyObject *ref = PyWeakref_NewRef(self, nullptr);
  if (!ref) throw pybind11::error_already_set();
  pybind11::object kernelRef = pybind11::reinterpret_steal<pybind11::object>(ref);
  pybind11::object launcher;
  jit::LaunchConfig parsed;
  std::string name;
  if (cpu) {
    auto d = pybind11::cast<std::shared_ptr<Dispatcher>>(dispatcher);
    d->flushCpuDeclared();
    name = d->name();
    launcher = makeCpuLauncher(std::move(d), cfg, kernelRef, parsed);
  } else {
    auto kernels = pybind11::cast<std::shared_ptr<jit::CudaKernels>>(core);
    name = kernels->name();
    auto l = std::make_unique<Launcher>(std::move(kernels), cfg, kernelRef);
    parsed = l->parsed.config;
    launcher = pybind11::cast(l.get(), pybind11::return_value_policy::take_ownership);
    l.release();  // (the Python object owns it)
  }
  rememberLauncher(k.launchers.ptr(), cfg.ptr(), launcher.ptr(), name, parsed.grid, 1);
  return launcher.release().ptr();
}

PyObject *kernelSubscript(PyObject *self, PyObject *config) {
  auto *inst = reinterpret_cast<pybind11::detail::instance *>(self);
  if (auto *k = inst->get_value_and_holder().value_ptr<KernelBase>()) {
    if (PyObject *hit = PyDict_GetItemWithError(k->launchers.ptr(), config)) {
      Py_INCREF(hit);
      return hit;
    }
    if (PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
      PyErr_Clear();  // an unhashable configuration: made each time
    }
    try {
      if (PyObject *made = newLauncher(self, *k, config)) return made;
    } catch (...) {
      setErrorFromCurrentException();
      return nullptr;
    }
  }
  return PyObject_CallMethod(self, "_launcher_for", "(O)", config);
}

// tp_call of Launcher: from the interpreter's call straight to C++.
}  // namespace

void define_cuda_launch(pybind11::module_ &m) {
  namespace py = pybind11;
  py::class_<jit::CudaKernels, std::shared_ptr<jit::CudaKernels>>(m, "CudaKernelCore")
      .def(py::init(
          [](Dispatcher &d) { return std::make_shared<jit::CudaKernels>(d.functionPtr()); }))
      // What the driver says of the kernel a launch with argument type key
      // `key` runs on the current device (cuFuncGetAttribute), loading it
      // when needed: kernel.get_regs_per_thread() and the others.
      .def("_attributes",
           [](jit::CudaKernels &k, const std::string &key) {
             const jit::CompileResult *compiled = nullptr;
             jit::LoadedEntry &e = k.entry(rt(), k.function().cudaResolve(key), &compiled);
             const cuda::LoadedKernel &l = *e.kernel;
             py::dict d;
             d["regs_per_thread"] = l.registers;
             d["shared_mem_per_block"] = l.staticShared;
             d["local_mem_per_thread"] = l.localBytes;
             d["const_mem_size"] = l.constBytes;
             d["max_threads_per_block"] = l.maxThreadsPerBlock;
             d["cooperative"] = l.cooperative;
             return d;
           })
      // The most blocks of `threads` threads (and `dynamicShared` bytes of
      // dynamic shared memory) a cooperative launch can have on the current
      // device: blocks resident per multiprocessor times multiprocessors.
      .def("_max_cooperative_grid_blocks",
           [](jit::CudaKernels &k, const std::string &key, int threads, size_t dynamicShared) {
             jit::LoadedEntry &e = k.entry(rt(), k.function().cudaResolve(key), nullptr);
             const cuda::Api &api = rt().api();
             if (!api.OccupancyMaxActiveBlocksPerMultiprocessor)
               throw pybind11::type_error(
                   "this CUDA driver lacks cuOccupancyMaxActiveBlocksPerMultiprocessor");
             int perSm = 0;
             rt().check(api.OccupancyMaxActiveBlocksPerMultiprocessor(&perSm, e.kernel->function,
                                                                      threads, dynamicShared),
                        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
             return perSm * rt().info(rt().current()).multiprocessors;
           });
  auto kernelBase = py::class_<KernelBase>(m, "KernelBase", py::dynamic_attr())
                        .def(py::init<>())
                        .def_readonly("_launchers", &KernelBase::launchers);
  m.def(
      "remember_launcher",
      [](pybind11::dict launchers, pybind11::tuple config, pybind11::object launcher,
         const std::string &name, int stacklevel) {
        ParsedLaunch p = parseLaunch(config, name);
        rememberLauncher(launchers.ptr(), config.ptr(), launcher.ptr(), name, p.config.grid,
                         stacklevel);
      },
      "caches `launcher` for `config` and warns of a small grid, as every kernel[config] does "
      "(rememberLauncher)");
  // Set on the Python subclass itself (CUDAKernel): a subclass made in
  // Python does not inherit a slot that no __getitem__ in its bases names.
  m.def("_install_kernel_subscript", [](py::type cls) {
    auto *t = reinterpret_cast<PyTypeObject *>(cls.ptr());
    if (!PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(kernelBaseType)) || !t->tp_as_mapping)
      throw py::type_error("_install_kernel_subscript takes a subclass of KernelBase");
    t->tp_as_mapping->mp_subscript = kernelSubscript;
    PyType_Modified(t);
  });
  kernelBaseType = kernelBase.ptr();
  auto launcher = py::class_<Launcher>(m, "CudaLauncher")
                      .def(py::init<std::shared_ptr<jit::CudaKernels>, py::object, py::object>());
  defineLauncherMembers(launcher);
  reinterpret_cast<PyTypeObject *>(launcher.ptr())->tp_call = launcherCall<Launcher>;
}

}  // namespace kjit::py
