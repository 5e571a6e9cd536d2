// Hash.h - the one content hash of kjit: cache keys (compiler/CacheKey.h),
// the disk cache's checksums (runtime/jit/DiskCache.cpp) and the names that
// the binding derives from source text all use it.
#pragma once

#include <string>

namespace kjit {

// 128 bits of FNV-1a (two lanes), as 32 hex digits. Deterministic across
// processes and machines (cache entries are shared between them).
std::string hashHex(const std::string &data);

}  // namespace kjit
