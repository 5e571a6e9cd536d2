#include "runtime/host/HostDevice.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "runtime/host/HostRuntime.h"

namespace kjit::host {

namespace {

void *at(uint64_t a) { return reinterpret_cast<void *>(uintptr_t(a)); }

struct HostMemory : device::Memory {
  ~HostMemory() override { kjitFree(host); }
};

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

device::Properties HostDevice::properties(int ordinal) const {
  if (ordinal != 0)
    throw std::out_of_range(
        fmt::format("there is no device {}: the CPU device is the only one", ordinal));
  device::Properties p;
  p.name = name_;
  p.arch = "host";
  // The limits kernels are checked against are a compute capability 9.0
  // GPU's (runtime/jit/LaunchConfig.h, DeviceLimits::gpuLike).
  p.ccMajor = 9;
  p.ccMinor = 0;
  p.maxSharedPerBlock = 48 * 1024;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  p.totalMemory = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  p.multiprocessors = cpus > 0 ? int(cpus) : 1;
  return p;
}

void HostDevice::select(int ordinal) {
  if (ordinal != 0)
    throw std::out_of_range(
        fmt::format("there is no device {}: the {} is device 0, the only one", ordinal, name_));
}

std::pair<size_t, size_t> HostDevice::memoryInfo() {
  long page = sysconf(_SC_PAGE_SIZE), total = sysconf(_SC_PHYS_PAGES),
       avail = sysconf(_SC_AVPHYS_PAGES);
  if (page <= 0 || total <= 0) return {0, 0};
  return {size_t(avail > 0 ? avail : total) * size_t(page), size_t(total) * size_t(page)};
}

std::shared_ptr<device::Memory> HostDevice::allocate(size_t bytes, device::MemoryKind kind) {
  auto m = std::make_shared<HostMemory>();
  m->host = kjitAllocate(bytes ? bytes : 1);
  if (!m->host) throw std::bad_alloc();
  m->address = reinterpret_cast<uintptr_t>(m->host);
  m->size = bytes;
  m->kind = kind;
  return m;
}

void HostDevice::copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream) {
  if (bytes) std::memmove(at(dst), src, bytes);
}

void HostDevice::copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream) {
  if (bytes) std::memmove(dst, at(src), bytes);
}

void HostDevice::copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream) {
  if (bytes) std::memmove(at(dst), at(src), bytes);
}

void HostDevice::fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream) {
  if (bytes) std::memset(at(dst), value, bytes);
}

device::Stream HostDevice::createStream() {
  return reinterpret_cast<device::Stream>(nextStream_.fetch_add(1));
}

device::Event HostDevice::createEvent(bool timing) {
  std::lock_guard<std::mutex> hold(mutex_);
  auto e = reinterpret_cast<device::Event>(nextEvent_++);
  events_[e].timing = timing;
  return e;
}

void HostDevice::destroyEvent(device::Event e) {
  std::lock_guard<std::mutex> hold(mutex_);
  events_.erase(e);
}

void HostDevice::record(device::Event e, device::Stream) {
  std::lock_guard<std::mutex> hold(mutex_);
  Mark &m = events_[e];
  m.recorded = true;
  m.seconds = now();
}

float HostDevice::elapsedMs(device::Event start, device::Event end) {
  std::lock_guard<std::mutex> hold(mutex_);
  const char *what[2] = {"start", "end"};
  device::Event es[2] = {start, end};
  for (int i = 0; i < 2; ++i) {
    auto it = events_.find(es[i]);
    // As CUDA says it (cuEventElapsedTime: CUDA_ERROR_INVALID_HANDLE).
    auto refuse = [&](const std::string &why) {
      return device::Error(fmt::format("event_elapsed_time: the {} event {}", what[i], why),
                           "cuEventElapsedTime", 400, "CUDA_ERROR_INVALID_HANDLE");
    };
    if (it == events_.end() || !it->second.timing) throw refuse("was made with timing=False");
    if (!it->second.recorded) throw refuse("has not been recorded (call .record())");
  }
  return float((events_[end].seconds - events_[start].seconds) * 1000.0);
}

std::shared_ptr<device::Kernel> HostDevice::load(const std::string &, const std::string &,
                                                 const std::string &name) {
  throw device::Unsupported(fmt::format(
      "kernel '{}': the CPU device runs kernels its host JIT compiled (HostKernel), not "
      "code objects",
      name));
}

void HostDevice::launch(device::Kernel &kernel, const device::LaunchShape &shape, device::Stream,
                        void **params) {
  auto &k = static_cast<HostKernel &>(kernel);
  CpuLaunch launch;
  for (int a = 0; a < 3; ++a) {
    launch.grid[a] = shape.grid[a];
    launch.block[a] = shape.block[a];
  }
  launch.dynamicSharedBytes = int64_t(shape.sharedBytes);
  CpuKernelError err;
  if (!runCpuKernel(*k.info, params, launch, pool_, err)) throw KernelFailed(std::move(err));
}

}  // namespace kjit::host
