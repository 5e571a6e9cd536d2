// CudaRuntime.cpp - see CudaRuntime.h.
#include "runtime/cuda/CudaRuntime.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "frontend/support/ErrorRecord.h"
#include "frontend/support/KernelAbi.h"  // the error record
#include "frontend/support/Options.h"

namespace kjit::cuda {

namespace {

// Device attributes (CUdevice_attribute).
enum : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockX = 2,
  kMaxGridX = 5,
  kMaxSharedPerBlock = 8,
  kWarpSize = 10,
  kMultiprocessors = 16,
  kUnifiedAddressing = 41,
  kCcMajor = 75,
  kCcMinor = 76,
  kManagedMemory = 83,
  kMaxSharedOptin = 97,
  kMemoryPoolsSupported = 115,
};
// Memory pool attributes (CUmemPool_attribute).
enum : int { kMemPoolReleaseThreshold = 4 };
// Function attributes (CUfunction_attribute).
enum : int {
  kFnMaxThreads = 0,
  kFnSharedBytes = 1,
  kFnConstBytes = 2,
  kFnLocalBytes = 3,
  kFnRegisters = 4
};
// Link options (CUjit_option) and input kinds (CUjitInputType).
enum : int {
  kJitInfoLog = 3,
  kJitInfoLogSize = 4,
  kJitErrorLog = 5,
  kJitErrorLogSize = 6,
  kJitVerbose = 12
};
enum : int { kInputPtx = 1 };
constexpr unsigned kHostRegisterPortable = 1, kHostRegisterDeviceMap = 2, kMemAttachGlobal = 1;

size_t pageSize() {
  static size_t p = size_t(sysconf(_SC_PAGESIZE));
  return p;
}

}  // namespace

const char *resultName(CUresult r) {
  switch (r) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 4: return "CUDA_ERROR_DEINITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 200: return "CUDA_ERROR_INVALID_IMAGE";
  case 201: return "CUDA_ERROR_INVALID_CONTEXT";
  case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 218: return "CUDA_ERROR_INVALID_PTX";
  case 222: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 400: return "CUDA_ERROR_INVALID_HANDLE";
  case 500: return "CUDA_ERROR_NOT_FOUND";
  case 600: return "CUDA_ERROR_NOT_READY";
  case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 702: return "CUDA_ERROR_LAUNCH_TIMEOUT";
  case 710: return "CUDA_ERROR_ASSERT";
  case 714: return "CUDA_ERROR_HARDWARE_STACK_ERROR";
  case 715: return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
  case 716: return "CUDA_ERROR_MISALIGNED_ADDRESS";
  case 717: return "CUDA_ERROR_INVALID_ADDRESS_SPACE";
  case 718: return "CUDA_ERROR_INVALID_PC";
  case 719: return "CUDA_ERROR_LAUNCH_FAILED";
  case 720: return "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return "CUDA_ERROR_(unknown)";
  }
}

Allocation::~Allocation() {
  bool live = rt && rt->valid(*this);
  const Api &api = rt ? rt->api() : Api{};
  switch (kind) {
  case Kind::Device:
  case Kind::Managed:
    if (live && address && pooled)
      rt->freePooled(*this);
    else if (live && address)
      api.MemFree(address);
    break;
  case Kind::Pinned:
  case Kind::Mapped:
    if (live && host) api.MemHostUnregister(host);
    break;
  }
  // Host memory we own outlives its context: unmapped only here.
  if (ownsHost && host) munmap(host, (size + pageSize() - 1) / pageSize() * pageSize());
}

static_assert(sizeof(CUdeviceptr) == sizeof(uint64_t), "device addresses are 64-bit");

bool Allocation::alive() const { return rt && rt->valid(*this); }

RuntimeOptions RuntimeOptions::fromEnvironment() {
  RuntimeOptions o;
  if (auto path = envString("KJIT_CUDA_DRIVER")) o.driver = *path;
  o.pool = envFlag("KJIT_CUDA_POOL", true);
  return o;
}

Runtime::Runtime(const RuntimeOptions &options) {
  const std::string &lib = options.driver;
  lib_ = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char *e = dlerror();
    why_ =
        fmt::format("the CUDA driver ({}) could not be loaded: {}", lib, e ? e : "unknown error");
    return;
  }
#define CU_FN(field, symbol, params)                                                              \
  api_.field = reinterpret_cast<decltype(api_.field)>(dlsym(lib_, symbol));                       \
  if (!api_.field) {                                                                              \
    why_ =                                                                                        \
        fmt::format("the CUDA driver ({}) has no entry point {}: too old a driver", lib, symbol); \
    return;                                                                                       \
  }
#define CU_OPT(field, symbol, params) \
  api_.field = reinterpret_cast<decltype(api_.field)>(dlsym(lib_, symbol));
#include "runtime/cuda/CudaApi.def"
  poolWanted_ = options.pool && api_.MemAllocAsync && api_.MemFreeAsync &&
                api_.DeviceGetDefaultMemPool && api_.MemPoolSetAttribute && api_.MemPoolTrimTo;
  CUresult r = api_.Init(0);
  if (r != 0) {
    why_ = fmt::format("cuInit failed: {} (no usable NVIDIA GPU or driver)", errorName(r));
    return;
  }
  api_.DriverGetVersion(&driverVersion_);
  int n = 0;
  if (api_.DeviceGetCount(&n) != 0 || n == 0) {
    why_ = "the CUDA driver found no GPU";
    return;
  }
  for (int i = 0; i < n; ++i) {
    DeviceState d;
    if (api_.DeviceGet(&d.handle, i) != 0) continue;
    DeviceInfo &in = d.info;
    in.ordinal = i;
    char name[256] = {0};
    api_.DeviceGetName(name, sizeof name, d.handle);
    in.name = name;
    char bus[64] = {0};
    if (api_.DeviceGetPCIBusId(bus, sizeof bus, d.handle) == 0) in.pciBusId = bus;
    auto attr = [&](int a, int &out) { api_.DeviceGetAttribute(&out, a, d.handle); };
    attr(kCcMajor, in.ccMajor);
    attr(kCcMinor, in.ccMinor);
    attr(kMaxThreadsPerBlock, in.maxThreadsPerBlock);
    for (int k = 0; k < 3; ++k) {
      attr(kMaxBlockX + k, in.maxBlock[k]);
      attr(kMaxGridX + k, in.maxGrid[k]);
    }
    attr(kMaxSharedPerBlock, in.maxSharedPerBlock);
    attr(kMaxSharedOptin, in.maxSharedOptin);
    attr(kWarpSize, in.warpSize);
    attr(kMultiprocessors, in.multiprocessors);
    attr(kUnifiedAddressing, in.unifiedAddressing);
    attr(kManagedMemory, in.managedMemory);
    api_.DeviceTotalMem(&in.totalMemory, d.handle);
    devices_.push_back(std::move(d));
  }
  available_ = !devices_.empty();
  if (!available_) why_ = "the CUDA driver found no usable GPU";
}

std::string Runtime::errorName(CUresult r) const {
  const char *name = nullptr;
  if (api_.GetErrorName && api_.GetErrorName(r, &name) == 0 && name) return name;
  return resultName(r);
}

void Runtime::require() const {
  if (!available_) throw Error("kjit: no CUDA GPU: " + why_, "cuInit", 100, "CUDA_ERROR_NO_DEVICE");
}

const DeviceInfo &Runtime::info(int ordinal) const {
  require();
  if (ordinal < 0 || ordinal >= int(devices_.size()))
    throw Error(
        fmt::format("kjit: there is no CUDA device {} ({} found)", ordinal, devices_.size()),
        "cuDeviceGet", 101, "CUDA_ERROR_INVALID_DEVICE");
  return devices_[size_t(ordinal)].info;
}

bool Runtime::isKernelFault(CUresult r) const {
  switch (r) {
  case 700:
  case 702:
  case 710:
  case 714:
  case 715:
  case 716:
  case 717:
  case 718:
  case 719: return true;
  default: return false;
  }
}

void Runtime::check(CUresult r, const char *call) {
  if (r == 0) return;
  if (isKernelFault(r)) fault(r, call);
  const char *text = nullptr;
  if (api_.GetErrorString) api_.GetErrorString(r, &text);
  std::string name = errorName(r);
  throw Error(fmt::format("{} failed: {}{}{}", call, name, text ? ": " : "", text ? text : ""),
              call, r, name);
}

void Runtime::reportRaised() {
  DeviceState &d = devices_.at(size_t(current_));
  std::erase_if(d.recorded, [](const std::weak_ptr<LoadedKernel> &w) { return w.expired(); });
  for (auto &w : d.recorded) {
    auto k = w.lock();
    volatile uint32_t *rec = k->record;
    if (k->generation != d.generation || rec[abi::RecComplete] != 1) continue;
    KernelRaised e(abi::decodeErrorRecord(rec, k->name, k->files, k->raises), k->name);
    // Ready for the next exception: the record, then the claim (in the
    // legacy stream's order, before later launches).
    rec[abi::RecComplete] = 0;
    uint32_t zero = 0;
    check(api_.MemcpyHtoD(k->claim, &zero, sizeof zero), "cuMemcpyHtoD");
    throw e;
  }
}

// A kernel faulted: the context is lost. Say so, naming the kernel last
// launched, then make a fresh context for what follows.
void Runtime::fault(CUresult r, const char *call) {
  DeviceState &d = devices_.at(size_t(current_));
  std::string name = errorName(r);
  const char *text = nullptr;
  if (api_.GetErrorString) api_.GetErrorString(r, &text);
  std::string message = fmt::format("kernel '{}' failed: {}{}{} (reported by {})",
                                    lastKernel_.empty() ? "?" : lastKernel_, name, text ? ": " : "",
                                    text ? text : "", call);
  // The context is lost. Give it back and reset the device's primary
  // context, so that the next call makes a new one (CUDA allows that when
  // no other library of the process still uses the old context).
  api_.CtxSetCurrent(nullptr);
  CUresult reset = api_.DevicePrimaryCtxReset(d.handle);
  message +=
      reset == 0
          ? "; the CUDA context is lost (kjit reset it: device arrays made before are gone, and "
            "where CUDA keeps the error for the process, later GPU calls say so)"
          : fmt::format("; the CUDA context is lost and could not be reset ({})", errorName(reset));
  d.context = nullptr;
  d.pool = nullptr;
  d.warm = false;
  d.lost = true;
  ++d.generation;
  d.recorded.clear();
  throw KernelFault(message, call, r, name);
}

void Runtime::select(int ordinal) {
  info(ordinal);  // checks
  DeviceState &old = devices_[size_t(current_)];
  if (ordinal != current_ && old.warm && old.context) {
    // Retained ahead of use by warmUp(), never used: not kept for nothing.
    api_.DevicePrimaryCtxRelease(old.handle);
    old.context = nullptr;
    old.pool = nullptr;
    old.warm = false;
  }
  current_ = ordinal;
  activate();
}

void Runtime::warmUp() {
  if (!available_ || devices_.empty() || devices_[0].context) return;
  CUcontext c = nullptr;
  if (api_.DevicePrimaryCtxRetain(&c, devices_[0].handle) != 0)
    return;  // activate() tries again and says why
  devices_[0].context = c;
  devices_[0].warm = true;
  usePool(devices_[0]);
}

// The device's default memory pool keeps what is freed for reuse (its
// release threshold raised from 0), so that an allocation in a loop costs
// no mapping of memory after the first.
void Runtime::usePool(DeviceState &d) {
  d.pool = nullptr;
  int supported = 0;
  if (!poolWanted_ || api_.DeviceGetAttribute(&supported, kMemoryPoolsSupported, d.handle) != 0 ||
      !supported)
    return;
  CUmemoryPool pool = nullptr;
  if (api_.DeviceGetDefaultMemPool(&pool, d.handle) != 0 || !pool) return;
  // Kept for reuse: up to an eighth of the device's memory (10 GB on an
  // H100); beyond that, freed memory goes back at the next synchronisation.
  unsigned long long keep = d.info.totalMemory / 8;
  if (api_.MemPoolSetAttribute(pool, kMemPoolReleaseThreshold, &keep) != 0) return;
  d.pool = pool;
}

void Runtime::noteStream(CUstream s) {
  if (!available_ || !poolOrdered_ || !s || s == reinterpret_cast<CUstream>(uintptr_t(1)) ||
      s == reinterpret_cast<CUstream>(uintptr_t(2)))
    return;
  unsigned flags = 0;
  // A stream the driver cannot tell about counts as non-blocking.
  if (api_.StreamGetFlags(s, &flags) == 0 && !(flags & 1 /* CU_STREAM_NON_BLOCKING */)) return;
  poolOrdered_ = false;
  // Memory freed so far was freed in the legacy stream's order only; the
  // kernels that used it may still run. Wait for them, so that the pool
  // gives nothing still in use to work on this stream.
  CUcontext cur = nullptr;
  api_.CtxGetCurrent(&cur);
  for (DeviceState &d : devices_)
    if (d.context && d.pool) {
      api_.CtxSetCurrent(d.context);
      api_.CtxSynchronize();
    }
  api_.CtxSetCurrent(cur);
}

void Runtime::freePooled(const Allocation &a) {
  DeviceState &d = devices_[size_t(a.ordinal)];
  CUcontext cur = nullptr;
  api_.CtxGetCurrent(&cur);
  if (cur != d.context) api_.CtxSetCurrent(d.context);
  // Work on a non-blocking stream is not ordered with the legacy stream the
  // free is queued on: wait for it, so that no kernel still reads what the
  // next allocation is given.
  if (!poolOrdered_) api_.CtxSynchronize();
  api_.MemFreeAsync(a.address, nullptr);
  if (cur != d.context) api_.CtxSetCurrent(cur);
}

void Runtime::activate() {
  require();
  DeviceState &d = devices_[size_t(current_)];
  if (!d.context) {
    CUcontext c = nullptr;
    CUresult r = api_.DevicePrimaryCtxRetain(&c, d.handle);
    if (r != 0 && d.lost && isKernelFault(r))
      throw Error(
          fmt::format(
              "CUDA gives this process no new context on device {} after a kernel fault ({}): "
              "another library may still hold the old one; restart the process",
              current_, errorName(r)),
          "cuDevicePrimaryCtxRetain", r, errorName(r));
    check(r, "cuDevicePrimaryCtxRetain");
    d.context = c;
    d.lost = false;
    usePool(d);
  }
  d.warm = false;
  CUcontext cur = nullptr;
  api_.CtxGetCurrent(&cur);
  if (cur != d.context) check(api_.CtxSetCurrent(d.context), "cuCtxSetCurrent");
}

void Runtime::synchronize() {
  activate();
  checkSync(api_.CtxSynchronize(), "cuCtxSynchronize");
}

void Runtime::close() {
  if (!available_) return;
  for (auto &d : devices_) {
    if (!d.context) continue;
    api_.CtxSetCurrent(d.context);
    api_.CtxSynchronize();
    if (d.pool) api_.MemPoolTrimTo(d.pool, 0);  // what the pool keeps goes back too
    api_.DevicePrimaryCtxRelease(d.handle);
    d.context = nullptr;
    d.pool = nullptr;
    d.warm = false;
    ++d.generation;
    d.recorded.clear();
  }
  api_.CtxSetCurrent(nullptr);
}

std::shared_ptr<Allocation> Runtime::allocate(size_t bytes, Allocation::Kind kind) {
  activate();
  auto a = std::make_shared<Allocation>();
  a->ordinal = current_;
  a->generation = devices_[size_t(current_)].generation;
  a->kind = kind;
  a->size = bytes;
  size_t n = bytes ? bytes : 1;
  switch (kind) {
  case Allocation::Kind::Device: {
    DeviceState &d = devices_[size_t(current_)];
    if (!d.pool) {
      check(api_.MemAlloc(reinterpret_cast<CUdeviceptr *>(&a->address), n), "cuMemAlloc");
      break;
    }
    CUresult r = api_.MemAllocAsync(reinterpret_cast<CUdeviceptr *>(&a->address), n, nullptr);
    if (r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */) {
      // What the pool keeps goes back to the device, then once more.
      api_.CtxSynchronize();
      api_.MemPoolTrimTo(d.pool, 0);
      r = api_.MemAllocAsync(reinterpret_cast<CUdeviceptr *>(&a->address), n, nullptr);
    }
    check(r, "cuMemAllocAsync");
    a->pooled = true;
    break;
  }
  case Allocation::Kind::Managed:
    check(api_.MemAllocManaged(reinterpret_cast<CUdeviceptr *>(&a->address), n, kMemAttachGlobal),
          "cuMemAllocManaged");
    a->host = reinterpret_cast<void *>(a->address);
    break;
  case Allocation::Kind::Pinned:
  case Allocation::Kind::Mapped: {
    // Our own pages, registered with the driver: they stay valid for NumPy
    // even when a fault costs the context its registrations.
    size_t len = (n + pageSize() - 1) / pageSize() * pageSize();
    void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw Error(fmt::format("kjit: cannot allocate {} bytes of host memory", bytes), "mmap", 2,
                  "CUDA_ERROR_OUT_OF_MEMORY");
    a->host = p;
    a->ownsHost = true;
    unsigned flags =
        kHostRegisterPortable | (kind == Allocation::Kind::Mapped ? kHostRegisterDeviceMap : 0);
    check(api_.MemHostRegister(p, len, flags), "cuMemHostRegister");
    if (kind == Allocation::Kind::Mapped)
      check(api_.MemHostGetDevicePointer(reinterpret_cast<CUdeviceptr *>(&a->address), p, 0),
            "cuMemHostGetDevicePointer");
    break;
  }
  }
  a->rt = this;
  return a;
}

std::string Runtime::linkPtx(const std::string &ptx, const std::string &kernelName) {
  activate();
  char info[8192] = {0}, err[8192] = {0};
  int opts[] = {kJitInfoLog, kJitInfoLogSize, kJitErrorLog, kJitErrorLogSize, kJitVerbose};
  void *vals[] = {info, reinterpret_cast<void *>(uintptr_t(sizeof info)), err,
                  reinterpret_cast<void *>(uintptr_t(sizeof err)),
                  reinterpret_cast<void *>(uintptr_t(0))};
  CUlinkState link = nullptr;
  check(api_.LinkCreate(5, opts, vals, &link), "cuLinkCreate");
  struct Destroy {
    const Api &api;
    CUlinkState s;
    ~Destroy() { api.LinkDestroy(s); }
  } destroy{api_, link};
  CUresult r = api_.LinkAddData(link, kInputPtx, const_cast<char *>(ptx.c_str()), ptx.size() + 1,
                                kernelName.c_str(), 0, nullptr, nullptr);
  if (r == 0) {
    void *cubin = nullptr;
    size_t size = 0;
    r = api_.LinkComplete(link, &cubin, &size);
    if (r == 0) return std::string(static_cast<const char *>(cubin), size);
  }
  std::string name = errorName(r);
  throw Error(fmt::format("linking the PTX of kernel '{}' failed: {}\nJIT log:\n{}{}", kernelName,
                          name, err, info),
              "cuLinkAddData", r, name);
}

std::shared_ptr<LoadedKernel> Runtime::load(const std::string &image, const std::string &entry,
                                            const std::string &name) {
  activate();
  DeviceState &d = devices_[size_t(current_)];
  auto k = std::make_shared<LoadedKernel>();
  k->name = name;
  k->device = current_;
  k->generation = d.generation;
  // PTX is compiled by the driver as a whole program: linking it (cuLink*)
  // compiles it as relocatable code, measured 4% slower on a math-bound
  // kernel (sin/exp) than the same PTX loaded whole. A cubin loads as is.
  size_t start = image.find_first_not_of(" \t\r\n");
  bool ptx =
      start != std::string::npos && (image.compare(start, 2, "//") == 0 || image[start] == '.');
  CUresult r;
  if (ptx) {
    char info[8192] = {0}, err[8192] = {0};
    int opts[] = {kJitInfoLog, kJitInfoLogSize, kJitErrorLog, kJitErrorLogSize};
    void *vals[] = {info, reinterpret_cast<void *>(uintptr_t(sizeof info)), err,
                    reinterpret_cast<void *>(uintptr_t(sizeof err))};
    r = api_.ModuleLoadDataEx(&k->module, image.c_str(), 4, opts, vals);
    if (r != 0) {
      std::string n = errorName(r);
      throw Error(fmt::format("compiling the PTX of kernel '{}' failed: {}\nJIT log:\n{}{}", name,
                              n, err, info),
                  "cuModuleLoadDataEx", r, n);
    }
  } else {
    r = api_.ModuleLoadData(&k->module, image.data());
    if (r != 0) {
      std::string n = errorName(r);
      throw Error(fmt::format("cuModuleLoadData failed for kernel '{}': {}", name, n),
                  "cuModuleLoadData", r, n);
    }
  }
  check(api_.ModuleGetFunction(&k->function, k->module, entry.c_str()), "cuModuleGetFunction");
  api_.FuncGetAttribute(&k->maxThreadsPerBlock, kFnMaxThreads, k->function);
  api_.FuncGetAttribute(&k->staticShared, kFnSharedBytes, k->function);
  api_.FuncGetAttribute(&k->registers, kFnRegisters, k->function);
  api_.FuncGetAttribute(&k->localBytes, kFnLocalBytes, k->function);
  api_.FuncGetAttribute(&k->constBytes, kFnConstBytes, k->function);
  CUdeviceptr slot = 0;
  size_t slotSize = 0;
  k->cooperative = api_.ModuleGetGlobal(&slot, &slotSize, k->module, "kjit_grid_sync") == 0;
  if (api_.ModuleGetGlobal(&slot, &slotSize, k->module, "kjit_error_record") == 0 &&
      slotSize == 8) {
    auto mem = allocate(abi::RecWords * sizeof(uint32_t), Allocation::Kind::Mapped);
    std::memset(mem->host, 0, abi::RecWords * sizeof(uint32_t));
    k->record = static_cast<uint32_t *>(mem->host);
    CUdeviceptr target = mem->address;
    check(api_.MemcpyHtoD(slot, &target, sizeof target), "cuMemcpyHtoD");
    size_t claimSize = 0;
    check(api_.ModuleGetGlobal(&k->claim, &claimSize, k->module, "kjit_error_claim"),
          "cuModuleGetGlobal(kjit_error_claim)");
    // The module's tables: strings, each ended by a NUL byte.
    auto table = [&](const char *global) {
      CUdeviceptr at = 0;
      size_t size = 0;
      if (api_.ModuleGetGlobal(&at, &size, k->module, global) != 0) return std::string();
      std::string bytes(size, '\0');
      check(api_.MemcpyDtoH(bytes.data(), at, size), "cuMemcpyDtoH");
      return bytes;
    };
    k->files = abi::splitNulTable(table("kjit_error_files"));
    k->raises = abi::raiseTable(table("kjit_error_raises"));
    k->recordMemory = std::move(mem);
    d.recorded.push_back(k);
  }
  return k;
}

}  // namespace kjit::cuda
