#include "runtime/cuda/CudaDevice.h"

#include <fmt/format.h>

namespace kjit::cuda {

namespace {

CUstream st(device::Stream s) { return static_cast<CUstream>(s); }
CUevent ev(device::Event e) { return static_cast<CUevent>(e); }
constexpr CUresult kNotReady = 600;  // CUDA_ERROR_NOT_READY

}  // namespace

device::Properties CudaDevice::properties(int ordinal) const {
  const DeviceInfo &d = rt_.info(ordinal);
  device::Properties p;
  p.ordinal = d.ordinal;
  p.name = d.name;
  p.arch = fmt::format("sm_{}{}", d.ccMajor, d.ccMinor);
  p.ccMajor = d.ccMajor;
  p.ccMinor = d.ccMinor;
  p.warpSize = unsigned(d.warpSize);
  p.totalMemory = d.totalMemory;
  p.multiprocessors = d.multiprocessors;
  p.maxThreadsPerBlock = d.maxThreadsPerBlock;
  for (int a = 0; a < 3; ++a) {
    p.maxBlock[a] = d.maxBlock[a];
    p.maxGrid[a] = d.maxGrid[a];
  }
  p.maxSharedPerBlock = d.maxSharedPerBlock;
  return p;
}

void CudaDevice::synchronize() {
  rt_.activate();
  rt_.synchronize();
}

std::pair<size_t, size_t> CudaDevice::memoryInfo() {
  rt_.activate();
  size_t freeB = 0, total = 0;
  rt_.check(rt_.api().MemGetInfo(&freeB, &total), "cuMemGetInfo");
  return {freeB, total};
}

uint64_t CudaDevice::epoch() const { return rt_.available() ? rt_.generation(rt_.current()) : 0; }

void CudaDevice::copyToDevice(uint64_t dst, const void *src, size_t bytes, device::Stream s) {
  if (s) rt_.noteStream(st(s));
  rt_.activate();
  if (!bytes) return;
  if (s)
    rt_.check(rt_.api().MemcpyHtoDAsync(dst, src, bytes, st(s)), "cuMemcpyHtoDAsync");
  else
    rt_.check(rt_.api().MemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

void CudaDevice::copyToHost(void *dst, uint64_t src, size_t bytes, device::Stream s) {
  if (s) rt_.noteStream(st(s));
  rt_.activate();
  if (!bytes) return;
  if (s) {
    rt_.check(rt_.api().MemcpyDtoHAsync(dst, src, bytes, st(s)), "cuMemcpyDtoHAsync");
    rt_.checkSync(rt_.api().StreamSynchronize(st(s)), "cuStreamSynchronize");
  } else {
    rt_.checkSync(rt_.api().MemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
  }
}

void CudaDevice::copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, device::Stream s) {
  if (s) rt_.noteStream(st(s));
  rt_.activate();
  if (!bytes) return;
  if (s)
    rt_.check(rt_.api().MemcpyDtoDAsync(dst, src, bytes, st(s)), "cuMemcpyDtoDAsync");
  else
    rt_.check(rt_.api().MemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

void CudaDevice::fill(uint64_t dst, unsigned char value, size_t bytes, device::Stream s) {
  if (s) rt_.noteStream(st(s));
  rt_.activate();
  if (!bytes) return;
  rt_.check(rt_.api().MemsetD8Async(dst, value, bytes, st(s)), "cuMemsetD8Async");
  if (!s) rt_.check(rt_.api().StreamSynchronize(nullptr), "cuStreamSynchronize");
}

device::Stream CudaDevice::createStream() {
  rt_.activate();
  CUstream h = nullptr;
  rt_.check(rt_.api().StreamCreate(&h, 0), "cuStreamCreate");
  return h;
}

void CudaDevice::destroyStream(device::Stream s) {
  if (s && rt_.available() && !rt_.closing()) rt_.api().StreamDestroy(st(s));
}

void CudaDevice::synchronizeStream(device::Stream s) {
  rt_.activate();
  rt_.checkSync(rt_.api().StreamSynchronize(st(s)), "cuStreamSynchronize");
}

bool CudaDevice::queryStream(device::Stream s) {
  rt_.activate();
  CUresult r = rt_.api().StreamQuery(st(s));
  if (r == kNotReady) return false;
  rt_.check(r, "cuStreamQuery");
  return true;
}

device::Event CudaDevice::createEvent(bool timing) {
  rt_.activate();
  CUevent h = nullptr;
  rt_.check(rt_.api().EventCreate(&h, timing ? 0 : 2 /* DISABLE_TIMING */), "cuEventCreate");
  return h;
}

void CudaDevice::destroyEvent(device::Event e) {
  if (e && rt_.available() && !rt_.closing()) rt_.api().EventDestroy(ev(e));
}

void CudaDevice::record(device::Event e, device::Stream s) {
  if (s) rt_.noteStream(st(s));
  rt_.check(rt_.api().EventRecord(ev(e), st(s)), "cuEventRecord");
}

void CudaDevice::wait(device::Stream s, device::Event e) {
  if (s) rt_.noteStream(st(s));
  rt_.check(rt_.api().StreamWaitEvent(st(s), ev(e), 0), "cuStreamWaitEvent");
}

void CudaDevice::synchronizeEvent(device::Event e) {
  rt_.checkSync(rt_.api().EventSynchronize(ev(e)), "cuEventSynchronize");
}

bool CudaDevice::queryEvent(device::Event e) {
  CUresult r = rt_.api().EventQuery(ev(e));
  if (r == kNotReady) return false;
  rt_.check(r, "cuEventQuery");
  return true;
}

float CudaDevice::elapsedMs(device::Event start, device::Event end) {
  float ms = 0;
  rt_.check(rt_.api().EventElapsedTime(&ms, ev(start), ev(end)), "cuEventElapsedTime");
  return ms;
}

std::shared_ptr<device::Kernel> CudaDevice::load(const std::string &image, const std::string &entry,
                                                 const std::string &name) {
  rt_.activate();
  return rt_.load(image, entry, name);
}

void CudaDevice::launch(device::Kernel &kernel, const device::LaunchShape &c, device::Stream s,
                        void **params) {
  auto &k = static_cast<LoadedKernel &>(kernel);
  const Api &api = rt_.api();
  if (k.cooperative) {  // grid.sync(): every block resident at once
    if (!api.LaunchCooperativeKernel)
      throw Error(fmt::format("kernel '{}' calls grid.sync(), which needs "
                              "cuLaunchCooperativeKernel; this CUDA driver lacks it",
                              k.name),
                  "cuLaunchCooperativeKernel", 0, "CUDA_ERROR_NOT_SUPPORTED");
    CUresult r =
        api.LaunchCooperativeKernel(k.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
                                    c.block[1], c.block[2], c.sharedBytes, st(s), params);
    constexpr CUresult kTooLarge = 720;  // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
    if (r == kTooLarge)
      throw Error(
          fmt::format("kernel '{}' calls grid.sync(), so all its blocks must be resident at "
                      "once, and a grid of {} blocks of {} threads is more than the GPU holds "
                      "(cuLaunchCooperativeKernel: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE); "
                      "kernel.overloads[sig].max_cooperative_grid_blocks(blockdim) gives the "
                      "most",
                      k.name, uint64_t(c.grid[0]) * c.grid[1] * c.grid[2],
                      uint64_t(c.block[0]) * c.block[1] * c.block[2]),
          "cuLaunchCooperativeKernel", r, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE");
    rt_.check(r, "cuLaunchCooperativeKernel");
  } else {
    rt_.check(api.LaunchKernel(k.function, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1],
                               c.block[2], c.sharedBytes, st(s), params, nullptr),
              "cuLaunchKernel");
  }
  rt_.launched(k);
}

}  // namespace kjit::cuda
