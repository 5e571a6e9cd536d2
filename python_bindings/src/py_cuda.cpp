// py_cuda.cpp - the CUDA driver from Python: its start-up (on a thread of
// its own), devices and their attributes, host registration, linking.
//
// The launch path is py_cuda_launch.cpp; memory, copies, streams, events and
// device arrays are the device layer's, the same for every device
// (py_device.cpp).
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

cuda::CudaDevice &cudaDevice() { return static_cast<cuda::CudaDevice &>(deviceOf("cuda")); }

// A stream work is queued on; the runtime learns whether it is ordered
// with the legacy default stream (its memory pool relies on that).
CUstream streamOf(pybind11::handle s) {
  auto h = static_cast<CUstream>(streamHandle(s));
  if (h) rt().noteStream(h);
  return h;
}

namespace {

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

}  // namespace

// cuTensorMapEncodeTiled: the 128 bytes of a TMA tensor map
// (kjit/cuda/tensor_map.py checks the arguments first and names them).
pybind11::bytes tensorMapEncode(int dtype, uint64_t address, std::vector<unsigned long long> dims,
                                std::vector<unsigned long long> strides, std::vector<unsigned> box,
                                int swizzle, int l2, int oob) {
  rt().activate();
  if (!rt().api().TensorMapEncodeTiled)
    throw std::runtime_error(
        "cuda.make_tensor_map(): this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or "
        "later has it)");
  alignas(64) unsigned char map[128] = {};
  std::vector<unsigned> elementStrides(box.size(), 1);
  rt().check(rt().api().TensorMapEncodeTiled(map, dtype, unsigned(dims.size()),
                                             reinterpret_cast<void *>(address), dims.data(),
                                             strides.data(), box.data(), elementStrides.data(),
                                             0 /* no interleave */, swizzle, l2, oob),
             "cuTensorMapEncodeTiled");
  return pybind11::bytes(reinterpret_cast<const char *>(map), sizeof map);
}

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

void define_cuda(pybind11::module_ &m) {
  namespace py = pybind11;
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
  m.def("cuda_tensor_map_encode", &tensorMapEncode);
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
  m.def("cuda_generation", [] { return rt().available() ? rt().generation(rt().current()) : 0; });
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
}

}  // namespace kjit::py
