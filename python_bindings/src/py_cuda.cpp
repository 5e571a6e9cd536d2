// py_cuda.cpp - the CUDA runtime from Python: devices, memory, device
// arrays, streams, events, interop (__cuda_array_interface__, DLPack) and
// the launch path.
//
// `kernel[grid, block](args)` ends in Launcher::call, which computes the
// argument type key, finds the loaded kernel for it (or has Python compile
// and link one), writes the parameters and calls cuLaunchKernel without
// going back to Python per argument. Device arrays are a C++ base class
// (DeviceArray) that the Python DeviceNDArray extends, so the launch path
// reads their pointer, shape and strides directly.
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <pthread.h>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "compiler/Signature.h"
#include "compiler/Types.h"
#include "cuda_prestart.h"
#include "py_common.h"
#include "py_values.h"
#include "runtime/cuda/CudaRuntime.h"
#include "runtime/host/DiskCache.h"

namespace kjit::py {

namespace {

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
  makeRuntime(false, cuda::RuntimeOptions::fromEnvironment());  // or waits for the start-up thread's
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
  if (auto *f = dynamic_cast<const cuda::KernelFault *>(&e); f && f->excClass == "IndexError") {
    PyErr_SetString(PyExc_IndexError, e.what());
    return;
  }
  const char *cls = e.call == "cuInit" ? "CudaSupportError" : "CudaDriverError";
  pybind11::object type = errors.attr(cls);
  pybind11::object exc = type(e.what(), e.call, e.code, e.name);
  PyErr_SetObject(type.ptr(), exc.ptr());
}

[[noreturn]] void launchConfigError(const std::string &msg) {
  pybind11::module_ errors = pybind11::module_::import("kjit.cuda.errors");
  pybind11::object type = errors.attr("LaunchConfigError");
  PyErr_SetObject(type.ptr(), type(msg).ptr());
  throw pybind11::error_already_set();
}

CUstream streamHandle(pybind11::handle s) {
  if (s.is_none()) return nullptr;
  if (PyLong_Check(s.ptr())) return reinterpret_cast<CUstream>(uintptr_t(PyLong_AsUnsignedLongLong(s.ptr())));
  for (const char *attr : {"handle", "ptr"})
    if (pybind11::hasattr(s, attr)) {
      pybind11::object h = s.attr(attr);
      if (pybind11::hasattr(h, "value")) h = h.attr("value");  // ctypes handles
      if (h.is_none()) return nullptr;
      return reinterpret_cast<CUstream>(uintptr_t(h.cast<unsigned long long>()));
    }
  throw pybind11::type_error("a stream is 0, None, a kjit stream (cuda.stream()) or a stream handle (int)");
}

// A stream work is queued on; the runtime learns whether it is ordered
// with the legacy default stream (its memory pool relies on that).
CUstream streamOf(pybind11::handle s) {
  CUstream h = streamHandle(s);
  if (h) rt().noteStream(h);
  return h;
}

// ---- memory -------------------------------------------------------------------

struct MemoryHandle {
  std::shared_ptr<cuda::Allocation> mem;
  uint64_t devicePointer() const { return mem->dptr; }
  uintptr_t hostPointer() const { return reinterpret_cast<uintptr_t>(mem->host); }
};

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
    if (PyObject_GetBuffer(o.ptr(), &view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_ANY_CONTIGUOUS) != 0)
      throw pybind11::error_already_set();
    ok = true;
  }
  ~Buffer() {
    if (ok) PyBuffer_Release(&view);
  }
};

void copyIn(uint64_t dst, pybind11::handle src, size_t n, CUstream s) {
  Buffer b(src, false);
  if (size_t(b.view.len) < n) throw pybind11::value_error("the host buffer is smaller than the copy");
  rt().activate();
  if (!n) return;
  pybind11::gil_scoped_release nogil;
  if (s) rt().check(rt().api().MemcpyHtoDAsync(dst, b.view.buf, n, s), "cuMemcpyHtoDAsync");
  else rt().check(rt().api().MemcpyHtoD(dst, b.view.buf, n), "cuMemcpyHtoD");
}

void copyOut(pybind11::handle dst, uint64_t src, size_t n, CUstream s) {
  Buffer b(dst, true);
  if (size_t(b.view.len) < n) throw pybind11::value_error("the host buffer is smaller than the copy");
  rt().activate();
  if (!n) return;
  pybind11::gil_scoped_release nogil;
  if (s) {
    rt().check(rt().api().MemcpyDtoHAsync(b.view.buf, src, n, s), "cuMemcpyDtoHAsync");
    rt().check(rt().api().StreamSynchronize(s), "cuStreamSynchronize");
  } else {
    rt().check(rt().api().MemcpyDtoH(b.view.buf, src, n), "cuMemcpyDtoH");
  }
}

void copyDevice(uint64_t dst, uint64_t src, size_t n, CUstream s) {
  rt().activate();
  if (!n) return;
  if (s) rt().check(rt().api().MemcpyDtoDAsync(dst, src, n, s), "cuMemcpyDtoDAsync");
  else rt().check(rt().api().MemcpyDtoD(dst, src, n), "cuMemcpyDtoD");
}

// ---- device arrays ----------------------------------------------------------

constexpr int kMaxDims = 9;

struct DeviceArray {
  std::shared_ptr<cuda::Allocation> mem;  // kjit memory, or null
  pybind11::object owner;                // what keeps external memory alive
  uint64_t ptr = 0;
  int nd = 0;
  int64_t shape[kMaxDims] = {0}, strides[kMaxDims] = {0};
  char code = 0;  // dtype (py_values.h)
  int64_t itemsize = 0;
  pybind11::object dtype;
  pybind11::object stream;  // the stream it was made on (0 when the default)
  bool readonly = false;

  void setup(pybind11::object memory, pybind11::object own, uint64_t p, pybind11::tuple shp, pybind11::tuple str,
             pybind11::object dt, pybind11::object st, bool ro) {
    if (shp.size() != str.size() || shp.size() > size_t(kMaxDims))
      throw pybind11::value_error(fmt::format("device arrays have 0 to {} dimensions, with as many strides", kMaxDims));
    mem = memory.is_none() ? nullptr : memory.cast<MemoryHandle &>().mem;
    owner = std::move(own);
    ptr = p;
    nd = int(shp.size());
    for (int k = 0; k < nd; ++k) {
      shape[k] = shp[size_t(k)].cast<int64_t>();
      strides[k] = str[size_t(k)].cast<int64_t>();
    }
    pybind11::dtype d = pybind11::dtype::from_args(dt);
    code = codeOfTypeNum(d.num());
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

struct DLDevice { int32_t type, id; };
struct DLDataType { uint8_t code, bits; uint16_t lanes; };
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
enum : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };

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
  uint8_t code = kind == 'i' ? 0 : kind == 'u' ? 1 : kind == 'f' ? 2 : kind == 'c' ? 5 : kind == 'b' ? 6 : 255;
  if (code == 255) throw pybind11::type_error("DLPack cannot carry this dtype");
  return DLDataType{code, uint8_t(d.itemsize() * 8), 1};
}

pybind11::dtype dtypeOfDl(DLDataType t) {
  if (t.lanes != 1) throw pybind11::type_error("kjit arrays take DLPack tensors of one lane");
  const char *kind = t.code == 0 ? "i" : t.code == 1 ? "u" : t.code == 2 ? "f" : t.code == 5 ? "c" : t.code == 6 ? "b" : nullptr;
  if (!kind) throw pybind11::type_error(fmt::format("unsupported DLPack type code {}", t.code));
  return pybind11::dtype(fmt::format("{}{}", kind, t.bits / 8));
}

pybind11::capsule exportDlpack(pybind11::object array, DeviceArray &a, int deviceType, int deviceId) {
  auto *e = new DlpackExport();
  e->array = array.release().ptr();
  DLTensor &dl = e->t.dl;
  dl.data = reinterpret_cast<void *>(a.ptr);
  dl.device = {deviceType, deviceId};
  dl.ndim = a.nd;
  dl.dtype = dlTypeOf(pybind11::dtype::from_args(a.dtype));
  for (int k = 0; k < a.nd; ++k) {
    e->shape[k] = a.shape[k];
    e->strides[k] = a.itemsize ? a.strides[k] / a.itemsize : 0;
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
  pybind11::object cap = stream.is_none() ? obj.attr("__dlpack__")() : obj.attr("__dlpack__")(pybind11::arg("stream") = stream);
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor")) throw pybind11::type_error("__dlpack__ did not return a 'dltensor' capsule");
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
  return pybind11::make_tuple(data, shape, strides, dt, pybind11::make_tuple(dl.device.type, dl.device.id),
                              pybind11::cast(owner));
}

// ---- kernels and the launch path --------------------------------------------

struct KernelEntry {
  std::string key;  // of the types compiled (a declared signature's, or the arguments')
  int device = 0;
  uint64_t generation = 0;
  std::shared_ptr<cuda::LoadedKernel> kernel;
  std::vector<const Type *> args;
  int dynamicSharedSet = 0;  // the opt-in size given to the driver
  uint64_t serial = 0;       // unique in the process: entries move and are freed, serials are not reused
};

class KernelCore {
public:
  // build(key, cc) -> (PTX or cubin, entry name): compiles for an argument type key.
  KernelCore(pybind11::object build, std::string name) : build_(std::move(build)), name_(std::move(name)) {}

  // An eager signature: launches whose arguments convert to its types use it.
  void declare(const std::string &sig) {
    Signature s;
    std::string err;
    if (!parseSignature(types_, sig, s, err)) throw pybind11::type_error("invalid signature: " + err);
    std::string key;
    for (const Type *t : s.args) key += keyOfType(t);
    declared_.emplace_back(key, s.args);
  }
  bool hasDeclared() const { return !declared_.empty(); }
  const std::string &name() const { return name_; }

  // The key of the types to compile for, given the arguments' key.
  const std::string &resolve(const std::string &key) {
    if (declared_.empty()) return key;
    for (auto &[k, d] : aliases_)
      if (k == key) return d;
    for (auto &[dk, dtypes] : declared_) {
      size_t p = 0;
      bool ok = true;
      for (const Type *want : dtypes) {
        if (p >= key.size()) { ok = false; break; }
        const Type *actual = typeOfKey(types_, key, p);
        if (!actual) { ok = false; break; }
        if (!(ok = convertsTo(actual, want))) break;
      }
      if (ok && p == key.size()) {
        aliases_.emplace_back(key, dk);
        return aliases_.back().second;
      }
    }
    std::string have, got;
    size_t p = 0;
    while (p < key.size()) got += (got.empty() ? "" : ", ") + typeOfKey(types_, key, p)->str();
    for (auto &[dk, dtypes] : declared_) {
      std::string s;
      for (const Type *t : dtypes) s += (s.empty() ? "" : ", ") + t->str();
      have += "\n    (" + s + ")";
    }
    throw pybind11::type_error(fmt::format("No matching definition for argument type(s) {} in kernel '{}'; "
                                           "the signatures declared are:{}", got, name_, have));
  }

  KernelEntry &entry(const std::string &key) {
    int dev = rt().current();
    uint64_t gen = rt().generation(dev);
    for (auto &e : entries_)
      if (e.device == dev && e.generation == gen && e.key == key) return e;
    pybind11::tuple built = build_(key, rt().info(dev).ccMajor * 10 + rt().info(dev).ccMinor);
    std::string image = built[0].cast<std::string>();
    std::string entryName = built[1].cast<std::string>();
    KernelEntry e;
    e.key = key;
    e.device = dev;
    e.kernel = rt().load(image, entryName, name_);
    e.generation = e.kernel->generation;
    size_t p = 0;
    while (p < key.size()) e.args.push_back(typeOfKey(types_, key, p));
    // Drop entries of lost contexts.
    std::erase_if(entries_, [&](const KernelEntry &x) { return x.generation != rt().generation(x.device); });
    static uint64_t serials = 0;
    e.serial = ++serials;
    entries_.push_back(std::move(e));
    return entries_.back();
  }

  bool warnedCopy = false;

private:
  pybind11::object build_;
  std::string name_;
  TypeContext types_;
  std::vector<std::pair<std::string, std::vector<const Type *>>> declared_;
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::vector<KernelEntry> entries_;
};

void dims(pybind11::handle v, unsigned out[3], const char *what) {
  out[0] = out[1] = out[2] = 1;
  auto one = [&](pybind11::handle x) -> unsigned {
    PyObject *idx = PyNumber_Index(x.ptr());
    if (!idx) {
      PyErr_Clear();
      throw pybind11::type_error(fmt::format("the {} dimensions are ints, or a tuple of 1 to 3 ints", what));
    }
    long long n = PyLong_AsLongLong(idx);
    Py_DECREF(idx);
    if (n < 1 || n > 0xffffffffLL)
      launchConfigError(fmt::format("the {} dimensions must be at least 1 (got {})", what, n));
    return unsigned(n);
  };
  if (PyTuple_Check(v.ptr()) || PyList_Check(v.ptr())) {
    pybind11::sequence s = pybind11::reinterpret_borrow<pybind11::sequence>(v);
    if (s.size() < 1 || s.size() > 3)
      launchConfigError(fmt::format("the {} dimensions are 1 to 3 ints (got {})", what, s.size()));
    for (size_t k = 0; k < s.size(); ++k) out[k] = one(s[k]);
  } else {
    out[0] = one(v);
  }
}

// A host array copied to the device for a launch, and back after it.
struct HostCopy {
  pybind11::object host;        // what to copy back into (null: read-only)
  pybind11::object contiguous;  // the contiguous array copied
  std::shared_ptr<cuda::Allocation> mem;
  size_t bytes = 0;
};

// One argument's device view: pointer, shape, strides.
struct ArrayView {
  uint64_t ptr = 0;
  int nd = 0;
  int64_t shape[kMaxDims], strides[kMaxDims];
};

class Launcher {
public:
  Launcher(std::shared_ptr<KernelCore> core, pybind11::object config) : core_(std::move(core)) {
    if (!PyTuple_Check(config.ptr()))
      launchConfigError(fmt::format("a launch configuration is kernel[grid, block], kernel[grid, block, stream] or "
                                    "kernel[grid, block, stream, sharedmem] (kernel '{}')", core_->name()));
    pybind11::tuple t = config;
    if (t.size() < 2 || t.size() > 4)
      launchConfigError(fmt::format("a launch configuration has 2 to 4 items, not {} (kernel '{}')", t.size(),
                                    core_->name()));
    dims(t[0], grid_, "grid");
    dims(t[1], block_, "block");
    if (t.size() > 2) {
      streamObj_ = t[2];
      if (!(PyLong_Check(t[2].ptr()) && PyLong_AsLongLong(t[2].ptr()) == 0)) stream_ = streamOf(t[2]);
    }
    if (t.size() > 3) {
      long long s = t[3].cast<long long>();
      if (s < 0) launchConfigError("the dynamic shared memory size cannot be negative");
      shared_ = size_t(s);
    }
  }

  void call(PyObject *args) {
    size_t n = size_t(PyTuple_GET_SIZE(args));
    if (n > kMaxArgs) throw pybind11::type_error(fmt::format("kernels take at most {} arguments", kMaxArgs));
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
          throw pybind11::value_error(fmt::format("argument {} of kernel '{}' is a device array of a CUDA context "
                                                  "that was lost or closed", i + 1, core_->name()));
        if (!d->code || d->nd < 1)
          throw pybind11::type_error(fmt::format("argument {} of kernel '{}': device arrays of dtype {} and {} "
                                                 "dimensions cannot be kernel arguments", i + 1, core_->name(),
                                                 pybind11::str(d->dtype).cast<std::string>(), d->nd));
        viewOf(*d, views[i]);
        appendArrayKey(key, d->code, d->nd, d->layout(), d->readonly);
        continue;
      }
      if (appendScalarKey(o, key)) continue;
      arrayArgument(o, i, key, views[i], copies, keep);
    }
    rt().activate();
    const std::string &useKey = core_->resolve(key);
    KernelEntry &e = core_->entry(useKey);
    checkConfig(e);
    // Parameters: arrays flattened (pointer, shape, strides), scalars in
    // zeroed 8-byte slots (NVPTX may widen small integer parameters).
    uint64_t words[kMaxArgs * (1 + 2 * kMaxDims) + 1];
    std::vector<std::vector<unsigned char>> aggregates;
    void *params[kMaxArgs * (1 + 2 * kMaxDims) + 1];
    size_t w = 0;
    for (size_t i = 0; i < n; ++i) {
      const Type *t = e.args[i];
      if (t->isArray()) {
        words[w] = views[i].ptr;
        params[w] = &words[w];
        ++w;
        for (int k = 0; k < views[i].nd; ++k, ++w) std::memcpy(&words[w], &views[i].shape[k], 8), params[w] = &words[w];
        for (int k = 0; k < views[i].nd; ++k, ++w) std::memcpy(&words[w], &views[i].strides[k], 8), params[w] = &words[w];
        continue;
      }
      unsigned char *dst;
      if (memSize(t) <= 8) {
        words[w] = 0;
        dst = reinterpret_cast<unsigned char *>(&words[w]);
      } else {
        aggregates.emplace_back(memSize(t) + 16, 0);
        dst = aggregates.back().data();
      }
      if (!writeValue(scalars[i], t, dst)) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        throw pybind11::type_error(fmt::format("kernel '{}': cannot convert argument {} to {}", core_->name(), i + 1,
                                               t->str()));
      }
      params[w++] = dst;
    }
    const cuda::Api &api = rt().api();
    rt().check(api.LaunchKernel(e.kernel->function, grid_[0], grid_[1], grid_[2], block_[0], block_[1], block_[2],
                                unsigned(shared_), stream_, params, nullptr),
               "cuLaunchKernel");
    rt().launched(*e.kernel);
    for (HostCopy &c : copies) {
      if (!c.host) continue;
      copyOut(c.contiguous, c.mem->dptr, c.bytes, stream_);
      if (!c.host.is(c.contiguous)) pybind11::module_::import("numpy").attr("copyto")(c.host, c.contiguous);
    }
  }

private:
  std::shared_ptr<KernelCore> core_;
  unsigned grid_[3], block_[3];
  size_t shared_ = 0;
  CUstream stream_ = nullptr;
  pybind11::object streamObj_;  // keeps a stream alive while the launcher is cached
  uint64_t checkedSerial_ = 0;  // the entry the configuration was last checked for

  static void viewOf(const DeviceArray &d, ArrayView &v) {
    v.ptr = d.ptr;
    v.nd = d.nd;
    std::memcpy(v.shape, d.shape, sizeof(int64_t) * size_t(d.nd));
    std::memcpy(v.strides, d.strides, sizeof(int64_t) * size_t(d.nd));
  }
  static void appendArrayKey(std::string &key, char code, int nd, char layout, bool readonly) {
    key += 'A';
    key += code;
    key += char('0' + nd);
    key += layout;
    key += readonly ? 'r' : 'w';
  }
  // Numbers, NumPy scalars, tuples of them: as @jit types them.
  static bool appendScalarKey(PyObject *o, std::string &key) {
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type ||
        PyObject_TypeCheck(o, &PyGenericArrType_Type()) || t == &PyTuple_Type) {
      size_t mark = key.size();
      if (appendKey(o, key)) return true;
      key.resize(mark);
      PyErr_Clear();
    }
    return false;
  }
  static PyTypeObject &PyGenericArrType_Type() {
    static PyTypeObject *t = reinterpret_cast<PyTypeObject *>(
        pybind11::module_::import("numpy").attr("generic").ptr());
    return *t;
  }

  void arrayArgument(PyObject *o, size_t i, std::string &key, ArrayView &v, std::vector<HostCopy> &copies,
                     std::vector<pybind11::object> &keep) {
    pybind11::handle h(o);
    auto &npy = pybind11::detail::npy_api::get();
    bool isNumpy = npy.PyArray_Check_(o);
    // Device memory of another library, or a kjit mapped/managed array.
    if (!isNumpy || Py_TYPE(o) != npy.PyArray_Type_) {
      if (PyObject_HasAttrString(o, "__cuda_array_interface__")) {
        cudaArrayInterface(pybind11::reinterpret_borrow<pybind11::object>(h).attr("__cuda_array_interface__"), i, key, v);
        return;
      }
      if (!isNumpy && PyObject_HasAttrString(o, "__dlpack__")) {
        int streamArg = stream_ ? int(reinterpret_cast<uintptr_t>(stream_)) : 1;
        pybind11::tuple r = importDlpack(pybind11::reinterpret_borrow<pybind11::object>(h), pybind11::int_(streamArg));
        pybind11::tuple dev = r[4];
        int dtype = dev[0].cast<int>();
        if (dtype != kDLCUDA && dtype != kDLCUDAManaged && dtype != kDLCUDAHost)
          throw pybind11::type_error(fmt::format("argument {} of kernel '{}' is a DLPack tensor on a device of type "
                                                 "{}, not CUDA memory", i + 1, core_->name(), dtype));
        keep.push_back(r[5]);
        fromParts(r[0].cast<uint64_t>(), r[1], r[2], pybind11::dtype::from_args(r[3]), false, i, key, v);
        return;
      }
    }
    if (!isNumpy)
      throw pybind11::type_error(fmt::format(
          "argument {} of kernel '{}' has a type kernels cannot take: {}", i + 1, core_->name(),
          pybind11::str(pybind11::type::handle_of(h).attr("__name__")).cast<std::string>()));
    // A host array: copied in, launched on, copied back (as Numba does).
    if (!core_->warnedCopy) {
      core_->warnedCopy = true;
      pybind11::object cat = pybind11::module_::import("kjit.errors").attr("PerformanceWarning");
      std::string msg = fmt::format("kernel '{}': a NumPy array argument is copied to the device and back at every "
                                    "launch; pass device arrays (cuda.to_device) to avoid the copies", core_->name());
      if (PyErr_WarnEx(cat.ptr(), msg.c_str(), 2) != 0) throw pybind11::error_already_set();
    }
    pybind11::array arr = pybind11::reinterpret_borrow<pybind11::array>(h);
    auto *proxy = pybind11::detail::array_proxy(o);
    constexpr int C_CONTIG = 0x1, F_CONTIG = 0x2, WRITEABLE = 0x400;
    bool writable = proxy->flags & WRITEABLE;
    pybind11::array contiguous = (proxy->flags & (C_CONTIG | F_CONTIG))
                                     ? arr
                                     : pybind11::array(pybind11::module_::import("numpy").attr("ascontiguousarray")(arr));
    HostCopy c;
    c.bytes = size_t(contiguous.nbytes());
    c.mem = rt().allocate(c.bytes, cuda::Allocation::Kind::Device);
    copyIn(c.mem->dptr, contiguous, c.bytes, stream_);
    c.contiguous = contiguous;
    if (writable) c.host = arr;
    pybind11::tuple shape(size_t(contiguous.ndim())), strides(size_t(contiguous.ndim()));
    for (size_t k = 0; k < size_t(contiguous.ndim()); ++k) {
      shape[k] = contiguous.shape()[k];
      strides[k] = contiguous.strides()[k];
    }
    fromParts(c.mem->dptr, shape, strides, contiguous.dtype(), !writable, i, key, v);
    copies.push_back(std::move(c));
  }

  // __cuda_array_interface__ v3 (v2 accepted): a view, no copy. When the
  // producer names a stream, this launch's stream waits for it.
  void cudaArrayInterface(pybind11::dict cai, size_t i, std::string &key, ArrayView &v) {
    if (cai.contains("mask") && !pybind11::object(cai["mask"]).is_none())
      throw pybind11::type_error(fmt::format("argument {} of kernel '{}': masked arrays are not supported", i + 1,
                                             core_->name()));
    pybind11::tuple shape = cai["shape"];
    pybind11::dtype dt = pybind11::dtype::from_args(cai["typestr"]);
    pybind11::tuple data = cai["data"];
    pybind11::object strides = cai.contains("strides") ? pybind11::object(cai["strides"]) : pybind11::none();
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

  void fromParts(uint64_t ptr, pybind11::tuple shape, pybind11::tuple strides, const pybind11::dtype &dt, bool readonly,
                 size_t i, std::string &key, ArrayView &v) {
    if (shape.size() > size_t(kMaxDims) || shape.size() == 0)
      throw pybind11::type_error(fmt::format("argument {} of kernel '{}': arrays of 1 to {} dimensions", i + 1,
                                             core_->name(), kMaxDims));
    char code = codeOfTypeNum(dt.num());
    if (!code || dt.byteorder() == '>')
      throw pybind11::type_error(fmt::format("argument {} of kernel '{}': unsupported dtype {}", i + 1, core_->name(),
                                             pybind11::str(pybind11::handle(dt)).cast<std::string>()));
    v.ptr = ptr;
    v.nd = int(shape.size());
    for (int k = 0; k < v.nd; ++k) {
      v.shape[k] = shape[size_t(k)].cast<int64_t>();
      v.strides[k] = strides[size_t(k)].cast<int64_t>();
    }
    appendArrayKey(key, code, v.nd, DeviceArray::layoutOf(v.nd, v.shape, v.strides, dt.itemsize()), readonly);
  }

  // The configuration against the device's and the kernel's limits.
  void checkConfig(KernelEntry &e) {
    if (checkedSerial_ == e.serial) return;
    const cuda::DeviceInfo &d = rt().info(e.device);
    const char *axis[3] = {"x", "y", "z"};
    unsigned long long threads = 1ull * block_[0] * block_[1] * block_[2];
    auto where = [&] { return fmt::format("kernel '{}' on {}", core_->name(), d.name); };
    for (int k = 0; k < 3; ++k) {
      if (block_[k] > unsigned(d.maxBlock[k]))
        launchConfigError(fmt::format("{}: a block of {} threads along {} is more than the device's limit of {}",
                                      where(), block_[k], axis[k], d.maxBlock[k]));
      if (grid_[k] > unsigned(d.maxGrid[k]))
        launchConfigError(fmt::format("{}: a grid of {} blocks along {} is more than the device's limit of {}", where(),
                                      grid_[k], axis[k], d.maxGrid[k]));
    }
    int limit = std::min(d.maxThreadsPerBlock, e.kernel->maxThreadsPerBlock);
    if (threads > unsigned(limit))
      launchConfigError(fmt::format("{}: {} threads per block ({} x {} x {}) is more than the limit of {}{}", where(),
                                    threads, block_[0], block_[1], block_[2], limit,
                                    limit < d.maxThreadsPerBlock ? " for this kernel (its registers)" : " of the device"));
    size_t total = shared_ + size_t(e.kernel->staticShared);
    if (total > size_t(d.maxSharedOptin))
      launchConfigError(fmt::format("{}: {} bytes of shared memory per block ({} static + {} dynamic) is more than the "
                                    "device's limit of {}", where(), total, e.kernel->staticShared, shared_,
                                    d.maxSharedOptin));
    if (total > size_t(d.maxSharedPerBlock) && e.dynamicSharedSet < int(shared_)) {
      rt().check(rt().api().FuncSetAttribute(e.kernel->function, 8 /* MAX_DYNAMIC_SHARED_SIZE_BYTES */, int(shared_)),
                 "cuFuncSetAttribute");
      e.dynamicSharedSet = int(shared_);
    }
    checkedSerial_ = e.serial;
  }
};

// The base of CUDAKernel: `kernel[config]` finds the launcher cached for the
// configuration without entering Python (mp_subscript); a configuration not
// seen before goes to CUDAKernel._launcher_for, which makes one.
struct KernelBase {
  pybind11::dict launchers;
};
PyObject *kernelBaseType = nullptr;

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
  }
  return PyObject_CallMethod(self, "_launcher_for", "(O)", config);
}

// tp_call of Launcher: from the interpreter's call straight to C++.
PyObject *launcherCall(PyObject *self, PyObject *args, PyObject *kwargs) {
  try {
    if (kwargs && PyDict_GET_SIZE(kwargs) != 0) {
      PyErr_SetString(PyExc_TypeError, "kernels take positional arguments only");
      return nullptr;
    }
    auto *inst = reinterpret_cast<pybind11::detail::instance *>(self);
    auto *l = inst->get_value_and_holder().value_ptr<Launcher>();
    if (!l) {
      PyErr_SetString(PyExc_TypeError, "kjit launcher used before __init__");
      return nullptr;
    }
    l->call(args);
    Py_RETURN_NONE;
  } catch (...) {
    setErrorFromCurrentException();
  }
  return nullptr;
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
    rt().check(rt().api().StreamSynchronize(handle), "cuStreamSynchronize");
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
    if (rt().available() && !rt().closing() && rt().generation(device) == generation) rt().api().EventDestroy(handle);
  }
  void record(pybind11::object stream) { rt().check(rt().api().EventRecord(handle, streamOf(stream)), "cuEventRecord"); }
  void synchronize() {
    pybind11::gil_scoped_release nogil;
    rt().check(rt().api().EventSynchronize(handle), "cuEventSynchronize");
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
    rt().check(rt().api().MemHostRegister(b.view.buf, size_t(b.view.len), 1 /* PORTABLE */), "cuMemHostRegister");
    ptr = b.view.buf;
    device = rt().current();
    generation = rt().generation(device);
  }
  void release() {
    if (ptr && !rt().closing() && rt().generation(device) == generation) rt().api().MemHostUnregister(ptr);
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

}  // namespace

void setErrorFromCurrentException() {
  try {
    throw;
  } catch (pybind11::error_already_set &e) {
    e.restore();
  } catch (const pybind11::builtin_exception &e) {
    e.set_error();
  } catch (const CompileFailure &f) {
    raiseCompileFailure(f);
  } catch (const cuda::Error &e) {
    setCudaError(e);
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
    }
  });
  m.def("cuda_available", [] { return rt().available(); });
  m.def("cuda_start", &startRuntime, py::arg("prestart") = py::none(),
        "begins the CUDA driver's start-up on a thread of its own (after kjit._cuda_prestart's, given its api)");
  m.def("cuda_join_start", &joinStartThread, "waits for the start-up thread (at exit, before fork)");
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
        return py::buffer_info(h.mem->host, 1, "B", 1, {py::ssize_t(h.mem->size)}, {py::ssize_t(1)});
      });
  m.def("cuda_alloc", [](size_t bytes, const std::string &kind) { return MemoryHandle{rt().allocate(bytes, kindOf(kind))}; });
  m.def("cuda_memcpy_htod", [](uint64_t dst, py::object src, size_t n, py::object s) { copyIn(dst, src, n, streamOf(s)); });
  m.def("cuda_memcpy_dtoh", [](py::object dst, uint64_t src, size_t n, py::object s) { copyOut(dst, src, n, streamOf(s)); });
  m.def("cuda_memcpy_dtod", [](uint64_t dst, uint64_t src, size_t n, py::object s) { copyDevice(dst, src, n, streamOf(s)); });
  py::class_<Registration>(m, "CudaHostRegistration")
      .def(py::init<py::handle>())
      .def("release", &Registration::release);
  m.def("cuda_link_ptx", [](const std::string &ptx, const std::string &name) { return py::bytes(rt().linkPtx(ptx, name)); });

  auto arr = py::class_<DeviceArray>(m, "DeviceArrayBase", py::dynamic_attr())
      .def(py::init<>())
      .def("_setup", &DeviceArray::setup)
      .def_property_readonly("shape", &DeviceArray::shapeTuple)
      .def_property_readonly("strides", &DeviceArray::stridesTuple)
      .def_property_readonly("ndim", [](const DeviceArray &a) { return a.nd; })
      .def_property_readonly("dtype", [](const DeviceArray &a) { return a.dtype; })
      .def_property_readonly("_ptr", [](const DeviceArray &a) { return a.ptr; })
      .def_property_readonly("_readonly", [](const DeviceArray &a) { return a.readonly; })
      .def_property_readonly("_memory", [](const DeviceArray &a) -> py::object {
        return a.mem ? py::cast(MemoryHandle{a.mem}) : py::none();
      })
      .def_property_readonly("_owner", [](const DeviceArray &a) { return a.owner; })
      .def_property_readonly("_alive", &DeviceArray::alive)
      .def_property_readonly("_layout", [](const DeviceArray &a) { return std::string(1, a.layout()); })
      .def_property("stream", [](const DeviceArray &a) { return a.stream; },
                    [](DeviceArray &a, py::object s) { a.stream = std::move(s); })
      .def("_dlpack", [](py::object self, int deviceType, int deviceId) {
        return exportDlpack(self, self.cast<DeviceArray &>(), deviceType, deviceId);
      });
  deviceArrayType = reinterpret_cast<PyTypeObject *>(arr.ptr());
  py::class_<DlpackOwner, std::shared_ptr<DlpackOwner>>(m, "DlpackOwner");
  m.def("dlpack_import", &importDlpack, py::arg("obj"), py::arg("stream") = py::none());

  py::class_<KernelCore, std::shared_ptr<KernelCore>>(m, "CudaKernelCore")
      .def(py::init<py::object, std::string>())
      .def("declare", &KernelCore::declare);
  auto kernelBase = py::class_<KernelBase>(m, "KernelBase", py::dynamic_attr())
                        .def(py::init<>())
                        .def_readonly("_launchers", &KernelBase::launchers);
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
      .def(py::init<std::shared_ptr<KernelCore>, py::object>());
  reinterpret_cast<PyTypeObject *>(launcher.ptr())->tp_call = launcherCall;

  py::class_<Stream>(m, "CudaStream")
      .def(py::init<>())
      .def(py::init<uintptr_t>())
      .def_property_readonly("handle", [](const Stream &s) { return reinterpret_cast<uintptr_t>(s.handle); })
      .def("synchronize", &Stream::synchronize)
      .def("query", &Stream::query);
  py::class_<Event>(m, "CudaEvent")
      .def(py::init<bool>(), py::arg("timing") = true)
      .def_property_readonly("handle", [](const Event &e) { return reinterpret_cast<uintptr_t>(e.handle); })
      .def("record", &Event::record, py::arg("stream") = 0)
      .def("synchronize", &Event::synchronize)
      .def("wait", &Event::wait, py::arg("stream") = 0)
      .def("query", &Event::query)
      .def_static("elapsed_time", &Event::elapsed);

  m.def("disk_cache_load", [](const std::string &dir, const std::string &key) -> py::object {
    auto e = DiskCache(dir).load(key);
    if (!e) return py::none();
    py::list l;
    for (auto &f : e->fields) l.append(py::bytes(f));
    return l;
  });
  m.def("disk_cache_store", [](const std::string &dir, const std::string &key, std::vector<std::string> fields) {
    CacheEntry e;
    e.fields = std::move(fields);
    return DiskCache(dir).store(key, e);
  });
}

}  // namespace kjit::py
