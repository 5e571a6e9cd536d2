// LaunchConfig.h - `kernel[grid, block, stream, sharedmem]`: the rules, once
// for every device (a CUDA GPU, the CPU device, the simulator), with one
// message per mistake.
//
// The bindings turn Python values into the integers below (or report a
// value that is not an integer with badDimension); everything else is
// checked here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kjit::jit {

struct LaunchConfig {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  size_t sharedBytes = 0;  // dynamic shared memory per block
};

// What a device allows. gpuLike() is an sm_90 GPU's limits, which the CPU
// device and the simulator keep so that a launch refused on the GPU is
// refused everywhere.
struct DeviceLimits {
  std::string name;  // as messages name the device
  int64_t maxBlock[3] = {1024, 1024, 64};
  int64_t maxGrid[3] = {2147483647, 65535, 65535};
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxSharedPerBlock = 48 * 1024;  // without the opt-in
  int64_t maxSharedOptin = 227 * 1024;    // with it (kjit opts in as needed)
  static DeviceLimits gpuLike(std::string name);
};

// What a compiled kernel allows (0: no limit of its own).
struct KernelLimits {
  int64_t maxThreadsPerBlock = 0;
  const char *why = "its registers";  // what sets that limit
  int64_t staticSharedBytes = 0;
};

// The number of items of a configuration: 2 to 4.
void checkItemCount(size_t n, const std::string &kernel);
// A grid or block (`what`) given as 1 to 3 integers (`n` of them in `v`;
// `items`, the list of them as Python writes it, for the message when `n`
// is not 1 to 3).
void setDims(uint32_t out[3], const int64_t *v, size_t n, const char *what,
             const std::string &kernel, const std::string &items = "");
// A grid or block item that is not an integer (`repr` as Python writes it;
// `items` the list of the items).
[[noreturn]] void badDimension(const char *what, const std::string &repr, const std::string &items,
                               const std::string &kernel);
void setSharedBytes(LaunchConfig &c, int64_t bytes, const std::string &kernel);

// Checks a configuration against the device's and the kernel's limits.
// Whether the dynamic shared memory needs the opt-in is the caller's to ask
// (needsSharedOptin).
void checkLaunch(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k,
                 const std::string &kernel);
bool needsSharedOptin(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k);

}  // namespace kjit::jit
