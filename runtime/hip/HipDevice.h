// HipDevice.h - the HIP runtime (AMD GPUs) as a kjit device
// (runtime/device/Device.h), over hip::Runtime. Copies are synchronous:
// the work queued before them on their stream (or the device) finishes
// first, and what a kernel recorded is raised then, as on NVIDIA GPUs.
#pragma once

#include "runtime/device/Device.h"
#include "runtime/hip/HipRuntime.h"

namespace kjit::hip {

class HipDevice final : public device::Device {
 public:
  explicit HipDevice(Runtime &rt) : rt_(rt) {}
  Runtime &runtime() { return rt_; }

  const char *kind() const override { return "hip"; }
  bool available() const override { return rt_.available(); }
  std::string why() const override { return rt_.why(); }
  int count() const override { return rt_.available() ? rt_.deviceCount() : 0; }
  device::Properties properties(int ordinal) const override;
  int current() const override { return rt_.current(); }
  void select(int ordinal) override { rt_.select(ordinal); }
  void synchronize() override { rt_.synchronize(); }
  std::pair<size_t, size_t> memoryInfo() override;

  std::shared_ptr<device::Memory> allocate(size_t bytes, device::MemoryKind kind) override {
    return rt_.allocate(bytes, kind);
  }
  void copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream s) override;
  void copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream s) override;
  void copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream s) override;
  void fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream s) override;

  device::Stream createStream() override { return rt_.createStream(); }
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
                                       const std::string &name) override {
    return rt_.load(image, entry, name);
  }
  void launch(device::Kernel &k, const device::LaunchShape &shape, device::Stream s,
              void **params) override;
  device::ParamLayout paramLayout() const override { return device::ParamLayout::ExtentsLast; }

 private:
  Runtime &rt_;
  // The work before a copy finishes first (and reports what it raised).
  void settle(device::Stream s);
};

}  // namespace kjit::hip
