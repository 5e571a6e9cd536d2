// LaunchConfig.cpp - see LaunchConfig.h.
#include "runtime/jit/LaunchConfig.h"

#include <fmt/format.h>

#include "runtime/jit/Errors.h"

namespace kjit::jit {

DeviceLimits DeviceLimits::gpuLike(std::string name) {
  DeviceLimits d;
  d.name = std::move(name);
  return d;
}

void checkItemCount(size_t n, const std::string &kernel) {
  if (n < 2 || n > 4)
    throw launchConfigError(
        fmt::format("kernel '{}': a launch configuration is [grid, block], [grid, block, stream] "
                    "or [grid, block, stream, sharedmem], not {} item{}",
                    kernel, n, n == 1 ? "" : "s"));
}

// Numba's words follow kjit's: "griddim must be a sequence of ...".
void badDimension(const char *what, const std::string &repr, const std::string &items,
                  const std::string &kernel) {
  throw launchConfigTypeError(
      fmt::format("kernel '{}': the {} must be an int or a tuple of 1 to 3 ints, not {} ({}dim "
                  "must be a sequence of integers, got {})",
                  kernel, what, repr, what, items));
}

void setDims(uint32_t out[3], const int64_t *v, size_t n, const char *what,
             const std::string &kernel, const std::string &items) {
  if (n < 1 || n > 3)
    throw launchConfigError(
        fmt::format("kernel '{}': the {} must be an int or a tuple of 1 to 3 ints, not {} ints "
                    "({}dim must be a sequence of 1, 2 or 3 integers, got {})",
                    kernel, what, n, what, items));
  out[0] = out[1] = out[2] = 1;
  for (size_t k = 0; k < n; ++k) {
    if (v[k] < 1 || v[k] > 0xffffffffLL)
      throw launchConfigError(
          fmt::format("kernel '{}': the {} along {} is {}; it must be at least 1", kernel, what,
                      "xyz"[k], v[k]));
    out[k] = uint32_t(v[k]);
  }
}

void setSharedBytes(LaunchConfig &c, int64_t bytes, const std::string &kernel) {
  if (bytes < 0)
    throw launchConfigError(fmt::format(
        "kernel '{}': the dynamic shared memory size cannot be negative (got {})", kernel, bytes));
  c.sharedBytes = size_t(bytes);
}

void checkLaunch(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k,
                 const std::string &kernel) {
  auto where = [&] { return fmt::format("kernel '{}' on {}", kernel, d.name); };
  for (int a = 0; a < 3; ++a) {
    if (c.block[a] > d.maxBlock[a])
      throw launchConfigError(
          fmt::format("{}: a block of {} threads along {} is more than the device's limit of {}",
                      where(), c.block[a], "xyz"[a], d.maxBlock[a]));
    if (c.grid[a] > d.maxGrid[a])
      throw launchConfigError(
          fmt::format("{}: a grid of {} blocks along {} is more than the device's limit of {}",
                      where(), c.grid[a], "xyz"[a], d.maxGrid[a]));
  }
  int64_t threads = int64_t(c.block[0]) * c.block[1] * c.block[2];
  bool kernelBound = k.maxThreadsPerBlock > 0 && k.maxThreadsPerBlock < d.maxThreadsPerBlock;
  int64_t limit = kernelBound ? k.maxThreadsPerBlock : d.maxThreadsPerBlock;
  if (threads > limit)
    throw launchConfigError(fmt::format(
        "{}: {} threads per block ({} x {} x {}) is more than the limit of {}{}", where(), threads,
        c.block[0], c.block[1], c.block[2], limit,
        // What the driver answers when the kernel's .maxntid is exceeded.
        kernelBound ? fmt::format(" for this kernel ({}): CUDA_ERROR_INVALID_VALUE", k.why)
                    : std::string(" of the device")));
  int64_t total = int64_t(c.sharedBytes) + k.staticSharedBytes;
  if (total > d.maxSharedOptin)
    throw launchConfigError(
        fmt::format("{}: {} bytes of shared memory per block ({} static + {} dynamic) is more "
                    "than the device's limit of {}",
                    where(), total, k.staticSharedBytes, c.sharedBytes, d.maxSharedOptin));
}

bool needsSharedOptin(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k) {
  return int64_t(c.sharedBytes) + k.staticSharedBytes > d.maxSharedPerBlock;
}

}  // namespace kjit::jit
