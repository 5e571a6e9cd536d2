// CudaDevice.h - the CUDA driver as a kjit device (runtime/device/Device.h):
// the interface's calls over cuda::Runtime, which keeps the contexts, the
// memory pool and the kernels' error records.
#pragma once

#include "runtime/cuda/CudaRuntime.h"
#include "runtime/device/Device.h"

namespace kjit::cuda {

class CudaDevice final : public device::Device {
 public:
  explicit CudaDevice(Runtime &rt) : rt_(rt) {}
  Runtime &runtime() { return rt_; }

  const char *kind() const override { return "cuda"; }
  bool available() const override { return rt_.available(); }
  std::string why() const override { return rt_.why(); }
  int count() const override { return rt_.available() ? rt_.deviceCount() : 0; }
  device::Properties properties(int ordinal) const override;
  int current() const override { return rt_.current(); }
  void select(int ordinal) override { rt_.select(ordinal); }
  void synchronize() override;
  std::pair<size_t, size_t> memoryInfo() override;
  uint64_t epoch() const override;
  bool closing() const override { return rt_.closing(); }

  std::shared_ptr<device::Memory> allocate(size_t bytes, device::MemoryKind kind) override {
    return rt_.allocate(bytes, kind);
  }
  void copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream s) override;
  void copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream s) override;
  void copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream s) override;
  void fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream s) override;

  device::Stream createStream() override;
  void destroyStream(device::Stream s) override;
  void synchronizeStream(device::Stream s) override;
  bool queryStream(device::Stream s) override;
  device::Event createEvent(bool timing) override;
  void destroyEvent(device::Event e) override;
  void record(device::Event e, device::Stream s) override;
  void wait(device::Stream s, device::Event e) override;
  void synchronizeEvent(device::Event e) override;
  bool queryEvent(device::Event e) override;
  float elapsedMs(device::Event start, device::Event end) override;

  std::shared_ptr<device::Kernel> load(const std::string &image, const std::string &entry,
                                       const std::string &name) override;
  // cuLaunchKernel, or cuLaunchCooperativeKernel for a kernel that calls
  // grid.sync() (its message says how many blocks fit when they do not).
  void launch(device::Kernel &k, const device::LaunchShape &shape, device::Stream s,
              void **params) override;
  device::ParamLayout paramLayout() const override { return device::ParamLayout::Interleaved; }

 private:
  Runtime &rt_;
};

}  // namespace kjit::cuda
