// Version.h - the compiler's version, in one place: the Python package's
// __version__ and part of every cache key.
#pragma once

namespace kjit {

inline constexpr const char *kVersion = "0.1.0";
// The layout of what a disk cache entry holds; part of every cache key, so
// that a change of layout never reads an old entry.
inline constexpr int kCacheFormat = 4;  // 4: CpuKernelInfo::constBytes; no traps in PTX

}  // namespace kjit
