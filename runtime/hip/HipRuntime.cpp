#include "runtime/hip/HipRuntime.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "frontend/support/ErrorRecord.h"
#include "frontend/support/KernelAbi.h"  // the error record

namespace kjit::hip {

namespace {

constexpr unsigned kHostMallocMapped = 0x2;  // hipHostMallocMapped

template <class F>
bool bind(void *lib, const char *symbol, F &field) {
  field = reinterpret_cast<F>(::dlsym(lib, symbol));
  return field != nullptr;
}

}  // namespace

std::string processorOf(const std::string &arch) { return arch.substr(0, arch.find(':')); }

unsigned wavefrontOf(const std::string &processor) {
  // gfx9xx and older: 64 lanes; gfx10xx, gfx11xx, gfx12xx: 32.
  if (processor.size() >= 5 && processor.compare(0, 3, "gfx") == 0) {
    int major = std::atoi(processor.substr(3, processor.size() - 5).c_str());
    return major >= 10 ? 32 : 64;
  }
  return 64;
}

RuntimeOptions RuntimeOptions::fromEnvironment() {
  RuntimeOptions o;
  if (const char *lib = std::getenv("KJIT_HIP_RUNTIME"); lib && *lib) o.library = lib;
  return o;
}

Runtime::Runtime(const RuntimeOptions &options) {
  std::vector<std::string> candidates;
  if (!options.library.empty()) {
    candidates.push_back(options.library);
  } else {
    // Without ROCm's kernel driver there is no AMD GPU, and the HIP library
    // is not loaded at all: on a machine with an NVIDIA GPU and a CUDA
    // context, Debian's libamdhip64.so.5 aborted the process.
    if (::access("/dev/kfd", F_OK) != 0) {
      why_ = "no AMD GPU: /dev/kfd (ROCm's kernel driver) is not there";
      return;
    }
    candidates = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
  }
  std::string errors;
  for (const std::string &c : candidates) {
    lib_ = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib_) {
      library_ = c;
      break;
    }
    const char *e = ::dlerror();
    errors += fmt::format("{}{}", errors.empty() ? "" : "; ", e ? e : c);
  }
  if (!lib_) {
    why_ = "the HIP runtime (libamdhip64.so) could not be loaded: " + errors;
    return;
  }
  std::string missing;
#define HIP_FN(field, symbol, params) \
  if (!bind(lib_, symbol, api_.field)) missing += std::string(missing.empty() ? "" : ", ") + symbol;
#include "runtime/hip/HipApi.def"
  bind(lib_, "hipGetErrorName", api_.GetErrorName);
  bind(lib_, "hipGetErrorString", api_.GetErrorString);
  if (!missing.empty()) {
    why_ = fmt::format("the HIP runtime {} lacks {}", library_, missing);
    return;
  }
  api_.RuntimeGetVersion(&runtimeVersion_);
  hipError_t r = api_.Init(0);
  int count = 0;
  if (r == 0) r = api_.GetDeviceCount(&count);
  if (r != 0 || count == 0) {
    why_ = fmt::format("no AMD GPU: the HIP runtime ({}) found none ({})", library_,
                       r == 0 ? std::string("0 devices") : "hipGetDeviceCount: " + errorName(r));
    return;
  }
  for (int i = 0; i < count; ++i) {
    DeviceInfo d;
    d.ordinal = i;
    char name[256] = {0};
    if (api_.DeviceGetName(name, sizeof name - 1, i) == 0) d.name = name;
    api_.DeviceTotalMem(&d.totalMemory, i);
    // The properties' gcnArchName ("gfx90a:sramecc+:xnack-"): the only
    // string of the structure that starts with "gfx", whatever its layout.
    std::vector<char> props(64 * 1024, 0);
    if (api_.GetDeviceProperties(props.data(), i) == 0) {
      for (size_t at = 0; at + 4 < props.size(); ++at) {
        if (std::memcmp(props.data() + at, "gfx", 3) != 0 || (at > 0 && props[at - 1] != 0))
          continue;
        size_t end = at;
        while (end < props.size() && props[end] != 0 && end - at < 255) ++end;
        d.arch.assign(props.data() + at, end - at);
        break;
      }
    }
    if (const char *forced = std::getenv("KJIT_HIP_ARCH"); forced && *forced) d.arch = forced;
    d.processor = processorOf(d.arch);
    d.wavefront = wavefrontOf(d.processor);
    devices_.push_back(std::move(d));
  }
  if (devices_[0].processor.empty()) {
    why_ = fmt::format(
        "the HIP runtime ({}) does not say which AMD GPU device 0 is (no gfx "
        "name in its properties); set KJIT_HIP_ARCH (gfx90a ...)",
        library_);
    devices_.clear();
    return;
  }
  available_ = true;
}

Runtime::~Runtime() {
  // The library stays loaded: its own exit handlers may still run.
}

std::string Runtime::errorName(hipError_t r) const {
  const char *n = api_.GetErrorName ? api_.GetErrorName(r) : nullptr;
  return n ? std::string(n) : fmt::format("hipError {}", r);
}

void Runtime::check(hipError_t r, const char *call) const {
  if (r == 0) return;
  std::string name = errorName(r);
  const char *text = api_.GetErrorString ? api_.GetErrorString(r) : nullptr;
  throw Error(fmt::format("{} failed: {}{}{}", call, name, text ? ": " : "", text ? text : ""),
              call, r, name);
}

void Runtime::require() const {
  if (!available_) throw Error(why_, "hipInit", kNoDevice, "hipErrorNoDevice");
}

const DeviceInfo &Runtime::info(int ordinal) const {
  require();
  if (ordinal < 0 || ordinal >= int(devices_.size()))
    throw Error(
        fmt::format("there is no AMD GPU {} (the HIP runtime has {})", ordinal, devices_.size()),
        "hipSetDevice", 101, "hipErrorInvalidDevice");
  return devices_[size_t(ordinal)];
}

void Runtime::select(int ordinal) {
  info(ordinal);
  check(api_.SetDevice(ordinal), "hipSetDevice");
  current_ = ordinal;
}

Allocation::~Allocation() {
  if (!rt) return;
  if (host)
    rt->api().HostFree(host);
  else if (address)
    rt->api().Free(ptr());
}

std::shared_ptr<Allocation> Runtime::allocate(size_t bytes, device::MemoryKind kind) {
  require();
  if (kind == device::MemoryKind::Managed)
    throw device::Unsupported(
        "managed memory (cuda.managed_array) is not supported on AMD GPUs yet (kjit's HIP "
        "device): docs/amdgpu.md lists what is");
  auto b = std::make_shared<Allocation>();
  b->kind = kind;
  b->size = bytes;
  b->ordinal = current_;
  void *p = nullptr;
  if (kind == device::MemoryKind::Device) {
    check(api_.Malloc(&p, bytes ? bytes : 1), "hipMalloc");
    b->address = reinterpret_cast<uintptr_t>(p);
  } else {
    check(api_.HostMalloc(&p, bytes ? bytes : 1, kHostMallocMapped), "hipHostMalloc");
    b->host = p;
    void *d = nullptr;
    if (kind == device::MemoryKind::Mapped) {
      check(api_.HostGetDevicePointer(&d, p, 0), "hipHostGetDevicePointer");
      b->address = reinterpret_cast<uintptr_t>(d);
    }
  }
  b->rt = this;
  return b;
}

void Runtime::copyToDevice(void *dst, const void *src, size_t bytes) {
  if (bytes) check(api_.MemcpyHtoD(dst, const_cast<void *>(src), bytes), "hipMemcpyHtoD");
}

void Runtime::copyToHost(void *dst, const void *src, size_t bytes) {
  if (bytes) check(api_.MemcpyDtoH(dst, const_cast<void *>(src), bytes), "hipMemcpyDtoH");
}

void Runtime::copyOnDevice(void *dst, const void *src, size_t bytes) {
  if (bytes) check(api_.MemcpyDtoD(dst, const_cast<void *>(src), bytes), "hipMemcpyDtoD");
}

void Runtime::fill(void *dst, unsigned char value, size_t bytes) {
  if (bytes) check(api_.MemsetD8(dst, value, bytes), "hipMemsetD8");
}

hipStream_t Runtime::createStream() {
  require();
  hipStream_t s = nullptr;
  check(api_.StreamCreate(&s), "hipStreamCreate");
  return s;
}

void Runtime::destroyStream(hipStream_t s) {
  if (s) check(api_.StreamDestroy(s), "hipStreamDestroy");
}

void Runtime::synchronize(hipStream_t s) {
  require();
  check(api_.StreamSynchronize(s), "hipStreamSynchronize");
  reportRaised();
}

hipEvent_t Runtime::createEvent() {
  require();
  hipEvent_t e = nullptr;
  check(api_.EventCreate(&e), "hipEventCreate");
  return e;
}

void Runtime::destroyEvent(hipEvent_t e) {
  if (e) check(api_.EventDestroy(e), "hipEventDestroy");
}

void Runtime::record(hipEvent_t e, hipStream_t s) {
  check(api_.EventRecord(e, s), "hipEventRecord");
}

void Runtime::synchronize(hipEvent_t e) {
  check(api_.EventSynchronize(e), "hipEventSynchronize");
  reportRaised();
}

float Runtime::elapsedMs(hipEvent_t start, hipEvent_t end) {
  float ms = 0;
  check(api_.EventElapsedTime(&ms, start, end), "hipEventElapsedTime");
  return ms;
}

LoadedKernel::~LoadedKernel() {
  if (!rt) return;
  if (recordHost) rt->api().HostFree(recordHost);
  if (module) rt->api().ModuleUnload(module);
}

std::shared_ptr<LoadedKernel> Runtime::load(const std::string &hsaco, const std::string &entry,
                                            const std::string &name) {
  require();
  auto k = std::make_shared<LoadedKernel>();
  k->rt = this;
  k->name = name;
  k->device = current_;
  hipError_t r = api_.ModuleLoadData(&k->module, hsaco.data());
  if (r != 0)
    throw Error(fmt::format("loading the code object of kernel '{}' failed: {} (compiled for {})",
                            name, errorName(r), devices_[size_t(current_)].processor),
                "hipModuleLoadData", r, errorName(r));
  check(api_.ModuleGetFunction(&k->function, k->module, entry.c_str()), "hipModuleGetFunction");
  void *slot = nullptr;
  size_t slotSize = 0;
  if (api_.ModuleGetGlobal(&slot, &slotSize, k->module, "kjit_error_record") == 0 &&
      slotSize == 8) {
    // The record in host memory the GPU writes (mapped), its device address
    // in the module's global.
    check(api_.HostMalloc(&k->recordHost, abi::RecWords * sizeof(uint32_t), kHostMallocMapped),
          "hipHostMalloc");
    std::memset(k->recordHost, 0, abi::RecWords * sizeof(uint32_t));
    k->record = static_cast<uint32_t *>(k->recordHost);
    void *target = nullptr;
    check(api_.HostGetDevicePointer(&target, k->recordHost, 0), "hipHostGetDevicePointer");
    copyToDevice(slot, &target, sizeof target);
    size_t claimSize = 0;
    check(api_.ModuleGetGlobal(&k->claim, &claimSize, k->module, "kjit_error_claim"),
          "hipModuleGetGlobal(kjit_error_claim)");
    auto table = [&](const char *global) {
      void *at = nullptr;
      size_t size = 0;
      if (api_.ModuleGetGlobal(&at, &size, k->module, global) != 0) return std::string();
      std::string bytes(size, '\0');
      copyToHost(bytes.data(), at, size);
      return bytes;
    };
    k->files = abi::splitNulTable(table("kjit_error_files"));
    k->raises = abi::raiseTable(table("kjit_error_raises"));
    std::lock_guard<std::mutex> hold(mutex_);
    recorded_.push_back(k);
  }
  return k;
}

void Runtime::synchronize() {
  require();
  check(api_.DeviceSynchronize(), "hipDeviceSynchronize");
  reportRaised();
}

void Runtime::reportRaised() {
  std::lock_guard<std::mutex> hold(mutex_);
  std::erase_if(recorded_, [](const std::weak_ptr<LoadedKernel> &w) { return w.expired(); });
  for (auto &w : recorded_) {
    auto k = w.lock();
    volatile uint32_t *rec = k->record;
    if (!rec || rec[abi::RecComplete] != 1) continue;
    KernelRaised e(abi::decodeErrorRecord(rec, k->name, k->files, k->raises), k->name);
    // Ready for the next exception: the record, then the claim.
    rec[abi::RecComplete] = 0;
    uint32_t zero = 0;
    copyToDevice(k->claim, &zero, sizeof zero);
    throw e;
  }
}

}  // namespace kjit::hip
