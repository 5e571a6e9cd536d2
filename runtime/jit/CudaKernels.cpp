// CudaKernels.cpp - see CudaKernels.h.
#include "runtime/jit/CudaKernels.h"

#include <algorithm>

#include "runtime/cuda/CudaRuntime.h"

namespace kjit::jit {

DeviceLimits limitsOf(cuda::Runtime &rt, int device) {
  const cuda::DeviceInfo &d = rt.info(device);
  DeviceLimits l;
  l.name = d.name;
  for (int a = 0; a < 3; ++a) {
    l.maxBlock[a] = d.maxBlock[a];
    l.maxGrid[a] = d.maxGrid[a];
  }
  l.maxThreadsPerBlock = d.maxThreadsPerBlock;
  l.maxSharedPerBlock = d.maxSharedPerBlock;
  l.maxSharedOptin = d.maxSharedOptin;
  return l;
}

LoadedEntry *CudaKernels::find(cuda::Runtime &rt, const std::string &key) {
  int dev = rt.current();
  uint64_t gen = rt.generation(dev);
  for (auto &e : entries_)
    if (e.device == dev && e.generation == gen && e.key == key) return &e;
  return nullptr;
}

bool CudaKernels::compiled(cuda::Runtime &rt, const std::string &key) {
  if (find(rt, key)) return true;
  const cuda::DeviceInfo &info = rt.info(rt.current());
  return fn_->cudaHas(fn_->cudaResolve(key), info.ccMajor * 10 + info.ccMinor);
}

LoadedEntry &CudaKernels::entry(cuda::Runtime &rt, const std::string &key,
                                const CompileResult **compiled) {
  if (LoadedEntry *e = find(rt, key)) return *e;
  int dev = rt.current();
  const cuda::DeviceInfo &info = rt.info(dev);
  size_t before = fn_->cudaResults().size();
  CompileResult &c = fn_->cudaKernelFor(fn_->cudaResolve(key), info.ccMajor * 10 + info.ccMinor);
  if (compiled) *compiled = fn_->cudaResults().size() > before && !c.fromCache ? &c : nullptr;
  LoadedEntry e;
  e.key = key;
  e.device = dev;
  e.kernel = rt.load(rt.linkExternals(c.code, fn_->name()), c.entrySymbol, fn_->name());
  e.generation = e.kernel->generation;
  e.compiled = &c;
  // Entries of lost contexts are dropped.
  std::erase_if(entries_,
                [&](const LoadedEntry &x) { return x.generation != rt.generation(x.device); });
  static uint64_t serials = 0;  // a counter, not state: serials only need to differ
  e.serial = ++serials;
  entries_.push_back(std::move(e));
  return entries_.back();
}

void CudaKernels::prepareLaunch(cuda::Runtime &rt, LoadedEntry &e, const LaunchConfig &c,
                                uint64_t &checkedSerial) {
  if (checkedSerial == e.serial) return;
  DeviceLimits d = limitsOf(rt, e.device);
  KernelLimits k;
  k.maxThreadsPerBlock = e.kernel->maxThreadsPerBlock;
  int bound = fn_->options().cuda.maxThreads;
  if (bound > 0 && k.maxThreadsPerBlock >= bound) k.why = "its launch_bounds";
  k.staticSharedBytes = e.kernel->staticShared;
  checkLaunch(c, d, k, fn_->name());
  if (needsSharedOptin(c, d, k) && e.dynamicSharedSet < int(c.sharedBytes)) {
    rt.check(rt.api().FuncSetAttribute(e.kernel->function, 8 /* MAX_DYNAMIC_SHARED_SIZE_BYTES */,
                                       int(c.sharedBytes)),
             "cuFuncSetAttribute");
    e.dynamicSharedSet = int(c.sharedBytes);
  }
  checkedSerial = e.serial;
}

}  // namespace kjit::jit
