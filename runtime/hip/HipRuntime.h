// HipRuntime.h - the HIP runtime (AMD GPUs), loaded at run time, and what
// kjit keeps on top of it: devices and their processors, device memory,
// code objects loaded as modules, launches and the kernels' error records.
// No ROCm header: the few types the API needs are declared here, and every
// entry point comes from dlopen of libamdhip64.so (KJIT_HIP_RUNTIME names
// another library: tests use a fake one).
//
// Without a library, or with one that finds no AMD GPU (Debian's
// libamdhip64.so.5 on a machine without one says hipErrorNoDevice),
// available() is false and why() says so; nothing throws or aborts.
// Errors of calls are hip::Error exceptions naming the call and the
// hipError_t; an exception a kernel's thread recorded (a failed bounds
// check; a raise with debug=True) is hip::KernelRaised at the next
// synchronisation, as on NVIDIA GPUs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontend/support/ErrorRecord.h"
#include "runtime/device/Device.h"

namespace kjit::hip {

using hipError_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;

constexpr hipError_t kNoDevice = 100;  // hipErrorNoDevice

struct Api {
#define HIP_FN(field, symbol, params) hipError_t(*field) params = nullptr;
#include "runtime/hip/HipApi.def"
  const char *(*GetErrorName)(hipError_t) = nullptr;
  const char *(*GetErrorString)(hipError_t) = nullptr;
};

// A failing runtime call: which call, the hipError_t and its name.
using Error = device::Error;

// An exception a kernel's thread recorded, read at a synchronisation.
using KernelRaised = abi::KernelRaised;

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string arch;       // as the runtime names it: "gfx90a:sramecc+:xnack-"
  std::string processor;  // what kjit compiles for: "gfx90a"
  unsigned wavefront = 64;
  size_t totalMemory = 0;
};

class Runtime;

// Memory, freed with the last reference: device memory (hipMalloc), or
// page-locked host memory the device can address (hipHostMalloc, mapped).
struct Allocation : device::Memory {
  Runtime *rt = nullptr;
  void *ptr() const { return reinterpret_cast<void *>(uintptr_t(address)); }
  ~Allocation() override;
};

// A kernel of a loaded code object, with the module's error record.
struct LoadedKernel : device::Kernel {
  Runtime *rt = nullptr;
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
  int device = 0;
  uint32_t *record = nullptr;  // host view of the error record (abi::RecWords u32), or null
  void *recordHost = nullptr;  // its mapped host allocation
  void *claim = nullptr;       // kjit_error_claim
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> raises;
  ~LoadedKernel() override;
};

struct RuntimeOptions {
  std::string library;  // KJIT_HIP_RUNTIME; empty: libamdhip64.so, .so.6, .so.5
  static RuntimeOptions fromEnvironment();
};

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions &options = RuntimeOptions::fromEnvironment());
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  bool available() const { return available_; }
  const std::string &why() const { return why_; }
  const std::string &library() const { return library_; }
  int runtimeVersion() const { return runtimeVersion_; }
  const Api &api() const { return api_; }

  // Throws Error unless a device is there.
  void require() const;
  // Throws Error when r is not hipSuccess.
  void check(hipError_t r, const char *call) const;
  std::string errorName(hipError_t r) const;

  int deviceCount() const { return int(devices_.size()); }
  const DeviceInfo &info(int ordinal) const;
  int current() const { return current_; }
  void select(int ordinal);

  // Device memory; host memory the device maps for Pinned and Mapped;
  // Managed is device::Unsupported on AMD GPUs yet.
  std::shared_ptr<Allocation> allocate(size_t bytes,
                                       device::MemoryKind kind = device::MemoryKind::Device);
  void copyToDevice(void *dst, const void *src, size_t bytes);
  void copyToHost(void *dst, const void *src, size_t bytes);
  void copyOnDevice(void *dst, const void *src, size_t bytes);
  void fill(void *dst, unsigned char value, size_t bytes);

  // Streams and events (hipStreamCreate, hipEventCreate ...); their
  // handles are the runtime's. Synchronising a stream or an event reports
  // what a kernel recorded, as synchronize() does.
  hipStream_t createStream();
  void destroyStream(hipStream_t s);
  void synchronize(hipStream_t s);
  hipEvent_t createEvent();
  void destroyEvent(hipEvent_t e);
  void record(hipEvent_t e, hipStream_t s);
  void synchronize(hipEvent_t e);
  float elapsedMs(hipEvent_t start, hipEvent_t end);

  // Loads a code object and finds `entry`; sets up the error record when
  // the module has one.
  std::shared_ptr<LoadedKernel> load(const std::string &hsaco, const std::string &entry,
                                     const std::string &name);
  // Waits for the device, then throws KernelRaised for an exception a
  // kernel recorded (and clears that record for the next one).
  void synchronize();
  void reportRaised();

 private:
  Api api_;
  void *lib_ = nullptr;
  bool available_ = false;
  std::string why_, library_;
  int runtimeVersion_ = 0;
  int current_ = 0;
  std::vector<DeviceInfo> devices_;
  std::vector<std::weak_ptr<LoadedKernel>> recorded_;  // kernels with an error record
  std::mutex mutex_;
};

// The processor kjit compiles for, from the runtime's name of the device's
// architecture ("gfx90a:sramecc+:xnack-" -> "gfx90a"), and its wavefront
// size (64 on GCN and CDNA, gfx9 and older; 32 on RDNA, gfx10 and later).
std::string processorOf(const std::string &arch);
unsigned wavefrontOf(const std::string &processor);

}  // namespace kjit::hip
