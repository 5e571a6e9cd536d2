#include "runtime/hip/HipDevice.h"

#include <fmt/format.h>

namespace kjit::hip {

namespace {

hipStream_t st(device::Stream s) { return static_cast<hipStream_t>(s); }
hipEvent_t ev(device::Event e) { return static_cast<hipEvent_t>(e); }
void *at(uint64_t a) { return reinterpret_cast<void *>(uintptr_t(a)); }
constexpr hipError_t kNotReady = 600;  // hipErrorNotReady

}  // namespace

device::Properties HipDevice::properties(int ordinal) const {
  const DeviceInfo &d = rt_.info(ordinal);
  device::Properties p;
  p.ordinal = d.ordinal;
  p.name = d.name;
  p.arch = d.processor;
  p.warpSize = d.wavefront;
  p.totalMemory = d.totalMemory;
  p.maxSharedPerBlock = 64 * 1024;  // an AMD GPU's LDS per workgroup
  return p;
}

std::pair<size_t, size_t> HipDevice::memoryInfo() {
  rt_.require();
  size_t freeB = 0, total = 0;
  rt_.check(rt_.api().MemGetInfo(&freeB, &total), "hipMemGetInfo");
  return {freeB, total};
}

void HipDevice::settle(device::Stream s) {
  if (s)
    rt_.synchronize(st(s));
  else
    rt_.synchronize();
}

void HipDevice::copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream s) {
  if (s) rt_.synchronize(st(s));
  rt_.copyToDevice(at(dst), src, bytes);
}

void HipDevice::copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream s) {
  settle(s);
  rt_.copyToHost(dst, at(src), bytes);
}

void HipDevice::copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream s) {
  if (s) rt_.synchronize(st(s));
  rt_.copyOnDevice(at(dst), at(src), bytes);
}

void HipDevice::fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream s) {
  if (s) rt_.synchronize(st(s));
  rt_.fill(at(dst), value, bytes);
}

void HipDevice::destroyStream(device::Stream s) {
  if (s && rt_.available()) rt_.api().StreamDestroy(st(s));
}

void HipDevice::synchronizeStream(device::Stream s) { settle(s); }

bool HipDevice::queryStream(device::Stream s) {
  hipError_t r = rt_.api().StreamQuery(st(s));
  if (r == kNotReady) return false;
  rt_.check(r, "hipStreamQuery");
  return true;
}

device::Event HipDevice::createEvent(bool) { return rt_.createEvent(); }

void HipDevice::destroyEvent(device::Event e) {
  if (e && rt_.available()) rt_.api().EventDestroy(ev(e));
}

void HipDevice::record(device::Event e, device::Stream s) { rt_.record(ev(e), st(s)); }

void HipDevice::wait(device::Stream s, device::Event e) {
  rt_.check(rt_.api().StreamWaitEvent(st(s), ev(e), 0), "hipStreamWaitEvent");
}

void HipDevice::synchronizeEvent(device::Event e) { rt_.synchronize(ev(e)); }

bool HipDevice::queryEvent(device::Event e) {
  hipError_t r = rt_.api().EventQuery(ev(e));
  if (r == kNotReady) return false;
  rt_.check(r, "hipEventQuery");
  return true;
}

float HipDevice::elapsedMs(device::Event start, device::Event end) {
  return rt_.elapsedMs(ev(start), ev(end));
}

void HipDevice::launch(device::Kernel &kernel, const device::LaunchShape &c, device::Stream s,
                       void **params) {
  auto &k = static_cast<LoadedKernel &>(kernel);
  hipError_t r =
      rt_.api().ModuleLaunchKernel(k.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
                                   c.block[1], c.block[2], c.sharedBytes, st(s), params, nullptr);
  if (r != 0)
    throw Error(fmt::format("launching kernel '{}' failed: {}", k.name, rt_.errorName(r)),
                "hipModuleLaunchKernel", r, rt_.errorName(r));
}

}  // namespace kjit::hip
