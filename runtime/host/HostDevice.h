// HostDevice.h - the CPU device as a kjit device (runtime/device/Device.h):
// GPU kernels compiled for the host and run with a GPU's launch semantics
// (runtime/host/CpuKernel.h), over host memory.
//
// Every kind of memory is host memory (64-byte aligned), its address the
// host pointer. Work is synchronous, done when its call returns: streams
// are handles that are always idle, events note the host's time when they
// are recorded. Kernels are not loaded from an image: the host JIT compiles
// them (runtime/jit) and hands them over as HostKernel; launch() runs the
// blocks on the thread pool and throws KernelFailed for what a thread
// raised.
#pragma once

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "runtime/device/Device.h"
#include "runtime/host/CpuKernel.h"

namespace kjit {

class ThreadPool;

namespace host {

// A kernel of the CPU device: the compiled module's entry points.
struct HostKernel : device::Kernel {
  const CpuKernelInfo *info = nullptr;
};

// A launch that stopped on a thread's exception or a divergent barrier.
struct KernelFailed : std::runtime_error {
  explicit KernelFailed(CpuKernelError e) : std::runtime_error(e.message), error(std::move(e)) {}
  CpuKernelError error;
};

class HostDevice final : public device::Device {
 public:
  // `pool` runs the blocks (null: one thread), `name` is the device's name.
  HostDevice(ThreadPool *pool, std::string name) : pool_(pool), name_(std::move(name)) {}

  const char *kind() const override { return "cpu"; }
  bool available() const override { return true; }
  std::string why() const override { return std::string(); }
  int count() const override { return 1; }
  device::Properties properties(int ordinal) const override;
  int current() const override { return 0; }
  void select(int ordinal) override;
  void synchronize() override {}
  std::pair<size_t, size_t> memoryInfo() override;

  std::shared_ptr<device::Memory> allocate(size_t bytes, device::MemoryKind kind) override;
  void copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream s) override;
  void copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream s) override;
  void copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream s) override;
  void fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream s) override;

  device::Stream createStream() override;
  void destroyStream(device::Stream) override {}
  void synchronizeStream(device::Stream) override {}
  bool queryStream(device::Stream) override { return true; }
  device::Event createEvent(bool timing) override;
  void destroyEvent(device::Event e) override;
  void record(device::Event e, device::Stream s) override;
  void wait(device::Stream, device::Event) override {}
  void synchronizeEvent(device::Event) override {}
  bool queryEvent(device::Event) override { return true; }
  // Throws device::Error unless both were recorded and made with timing.
  float elapsedMs(device::Event start, device::Event end) override;

  std::shared_ptr<device::Kernel> load(const std::string &image, const std::string &entry,
                                       const std::string &name) override;
  void launch(device::Kernel &k, const device::LaunchShape &shape, device::Stream s,
              void **params) override;
  // The host ABI (compiler/Lowering.h): params[i] points at argument i's
  // value in its memory form.
  device::ParamLayout paramLayout() const override { return device::ParamLayout::Host; }

 private:
  struct Mark {
    bool timing = true, recorded = false;
    double seconds = 0;
  };
  ThreadPool *pool_;
  std::string name_;
  std::atomic<uintptr_t> nextStream_{0x1000};
  std::mutex mutex_;
  std::unordered_map<device::Event, Mark> events_;
  uintptr_t nextEvent_ = 1;
};

}  // namespace host
}  // namespace kjit
