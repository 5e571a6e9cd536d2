// CudaRuntime.h - the CUDA driver API, loaded at run time, and what kjit
// keeps on top of it: devices and their primary contexts, allocations,
// modules (PTX linked to a cubin by the driver), streams, events and the
// kernel error records. No CUDA SDK header: the few types the driver API
// needs are declared here, and every entry point comes from dlopen.
//
// Errors are C++ exceptions (cuda::Error, cuda::KernelFault,
// cuda::KernelRaised) that the binding turns into Python ones. A kernel fault
// (trap, illegal address) poisons a CUDA context; the runtime gives the
// context back and makes a new one, so that the process can launch again
// (allocations of the old context are then gone: each carries its context's
// generation and is never touched again). An exception a kernel's thread
// recorded in its module's error record (a failed bounds check; a raise with
// debug=True) leaves the context alone: the runtime raises it at the next
// synchronisation (checkSync).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/support/ErrorRecord.h"
#include "runtime/device/Device.h"

namespace kjit::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUlinkState = struct CUlinkState_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;

struct Api {
#define CU_FN(field, symbol, params) CUresult(*field) params = nullptr;
#include "runtime/cuda/CudaApi.def"
};

// A failing driver call: which call, the CUresult and its name, and for
// module loads the JIT log.
using Error = device::Error;

// A kernel stopped on a fault: the message names the CUDA error and the
// kernel last launched.
class KernelFault : public Error {
 public:
  using Error::Error;
};

// An exception a kernel's thread recorded, read at a synchronisation.
using KernelRaised = abi::KernelRaised;

struct DeviceInfo {
  int ordinal = 0;
  std::string name, pciBusId;
  int ccMajor = 0, ccMinor = 0;
  int maxThreadsPerBlock = 1024, maxBlock[3] = {1024, 1024, 64},
      maxGrid[3] = {0x7fffffff, 65535, 65535};
  int maxSharedPerBlock = 48 * 1024, maxSharedOptin = 48 * 1024;
  int warpSize = 32, multiprocessors = 0, unifiedAddressing = 0, managedMemory = 0;
  size_t totalMemory = 0;
};

class Runtime;

// Memory: device, page-locked host (pinned, optionally mapped), managed.
// `address` is the device address (0 for pinned-only memory), `host` the
// host's (pinned, mapped, managed).
struct Allocation : device::Memory {
  using Kind = device::MemoryKind;
  Runtime *rt = nullptr;
  uint64_t generation = 0;
  bool ownsHost = false;  // host memory we allocated and registered
  bool pooled = false;    // from the device's memory pool, in the legacy stream's order
  ~Allocation() override;
  bool alive() const override;
};

// A kernel in a loaded module, with the module's error record.
struct LoadedKernel : device::Kernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  int device = 0;
  uint64_t generation = 0;
  uint32_t *record = nullptr;  // host view of the error record (abi::RecWords u32), or null
  std::shared_ptr<Allocation> recordMemory;
  CUdeviceptr claim = 0;                                    // kjit_error_claim
  std::vector<std::string> files;                           // kjit_error_files
  std::vector<std::pair<std::string, std::string>> raises;  // kjit_error_raises: class, message
  int maxThreadsPerBlock = 1024, staticShared = 0, registers = 0;
  int localBytes = 0, constBytes = 0;  // per thread; the module's constant memory
  // The kernel calls grid.sync() (its module has the kjit_grid_sync
  // marker): it is launched with cuLaunchCooperativeKernel.
  bool cooperative = false;
};

// What the environment asks of the runtime, read on the thread that starts
// it (never on the start-up thread: the program may be changing the
// environment meanwhile).
struct RuntimeOptions {
  std::string driver = "libcuda.so.1";  // KJIT_CUDA_DRIVER
  bool pool = true;                     // KJIT_CUDA_POOL=0 turns the memory pool off
  static RuntimeOptions fromEnvironment();
};

class Runtime {
 public:
  // The driver from KJIT_CUDA_DRIVER (a path), else libcuda.so.1. Never
  // throws: when it cannot be loaded or initialised, available() is false
  // and why() says what happened.
  explicit Runtime(const RuntimeOptions &options = RuntimeOptions::fromEnvironment());
  ~Runtime() = default;
  bool available() const { return available_; }
  const std::string &why() const { return why_; }
  const Api &api() const { return api_; }
  int driverVersion() const { return driverVersion_; }

  // Throws Error unless the driver is loaded.
  void require() const;
  // Throws Error (or KernelFault for a kernel's fault) when r is not 0.
  void check(CUresult r, const char *call);
  // check() for a call that waited for the device (a synchronisation, a copy
  // to the host): then throws KernelRaised for an exception a kernel recorded
  // (reportRaised).
  void checkSync(CUresult r, const char *call) {
    check(r, call);
    if (recordsPending_) reportRaised();
  }
  // Throws KernelRaised when a kernel launched on this device has recorded an
  // exception, and clears that record for the next one.
  void reportRaised();
  std::string errorName(CUresult r) const;

  int deviceCount() const { return int(devices_.size()); }
  const DeviceInfo &info(int ordinal) const;
  int current() const { return current_; }
  void select(int ordinal);  // makes its primary context current
  // Retains device 0's primary context ahead of its first use (kjit's
  // start-up thread). select() of another device first gives it back.
  void warmUp();
  // The current device's context, made current on this thread; created on
  // first use.
  void activate();
  uint64_t generation(int ordinal) const { return devices_.at(size_t(ordinal)).generation; }
  bool valid(const Allocation &a) const {
    return !closing_ && a.ordinal < int(devices_.size()) &&
           devices_[size_t(a.ordinal)].generation == a.generation &&
           devices_[size_t(a.ordinal)].context;
  }
  void synchronize();
  // Gives back every primary context (cuda.close()).
  void close();
  void markClosing() { closing_ = true; }
  bool closing() const { return closing_; }

  std::shared_ptr<Allocation> allocate(size_t bytes, Allocation::Kind kind);
  // Links PTX into a cubin for the current device (the driver's JIT).
  std::string linkPtx(const std::string &ptx, const std::string &kernelName);
  // Code to link with every module whose PTX calls `symbol` (cuda.declare_device's
  // link=): kind is "ptx", "cu" (CUDA C++, compiled by NVRTC), "cubin", "fatbin",
  // "o" or "a" (CudaLink.cpp).
  struct LinkInput {
    std::string kind, data, name;
  };
  void registerLink(const std::string &symbol, std::vector<LinkInput> inputs);
  // The image to load for a kernel's PTX: the PTX itself when it calls no
  // registered function, else the cubin of the PTX linked with their code.
  std::string linkExternals(const std::string &ptx, const std::string &kernelName);
  // Loads a cubin (or PTX) and finds `entry`; sets up the error record
  // (and reads its file names) when the module has one.
  std::shared_ptr<LoadedKernel> load(const std::string &image, const std::string &entry,
                                     const std::string &name);
  // Remembers the last kernel launched on a device, to name it in faults.
  // Device memory comes from the driver's stream-ordered pool (allocated and
  // freed in the legacy default stream's order, kept for reuse) unless
  // KJIT_CUDA_POOL=0, the driver has none, or a non-blocking stream was
  // used: that stream is not ordered with the legacy one, so frees of
  // pooled memory then wait for the device first.
  void noteStream(CUstream s);
  bool poolOrdered() const { return poolOrdered_; }
  void freePooled(const Allocation &a);
  void launched(const LoadedKernel &k) {
    if (lastKernel_ != k.name) lastKernel_ = k.name;
    if (k.record) recordsPending_ = true;
  }

 private:
  struct DeviceState {
    DeviceInfo info;
    CUdevice handle = 0;
    CUcontext context = nullptr;
    uint64_t generation = 1;
    bool lost = false;            // a kernel fault cost the device its context
    bool warm = false;            // retained by warmUp() and not used yet
    CUmemoryPool pool = nullptr;  // the default memory pool, when used
    std::vector<std::weak_ptr<LoadedKernel>> recorded;  // the kernels with an error record
  };
  Api api_;
  void *lib_ = nullptr;
  bool available_ = false;
  bool closing_ = false;
  std::string why_;
  int driverVersion_ = 0;
  int current_ = 0;
  std::vector<DeviceState> devices_;
  std::string lastKernel_;
  bool recordsPending_ = false;  // a kernel with an error record was launched
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::vector<LinkInput>>> links_;  // registerLink
  std::mutex linkMutex_;

  bool poolWanted_ = false;  // KJIT_CUDA_POOL is not 0 and the driver has pools
  bool poolOrdered_ = true;  // no non-blocking stream seen (noteStream)

  void usePool(DeviceState &d);
  bool isKernelFault(CUresult r) const;
  [[noreturn]] void fault(CUresult r, const char *call);
};

// The name of a CUresult without the driver (CUDA_ERROR_...), for messages
// about calls that failed before the driver could say.
const char *resultName(CUresult r);

}  // namespace kjit::cuda
