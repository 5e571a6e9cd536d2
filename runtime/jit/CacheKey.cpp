// CacheKey.cpp - see CacheKey.h.
#include "runtime/jit/CacheKey.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "compiler/CacheKey.h"
#include "runtime/jit/Version.h"

namespace kjit::jit {

std::string cacheKey(const CacheInputs &in) {
  std::string text =
      fmt::format("kjit {} cache {}\nfunction {}\ntarget {}\nargs {}\nreturns {}\noptions {}\n{}",
                  kVersion, kCacheFormat, in.function, in.target, in.argumentKey,
                  in.declaredReturn.empty() ? "-" : in.declaredReturn, in.options, in.fingerprint);
  std::string name = in.function == "<lambda>" ? "lambda" : in.function;
  return name + "-" + hashHex(text);
}

std::string cacheFolder(const std::string &sourceFile) {
  if (const char *d = std::getenv("KJIT_CACHE_DIR"); d && *d) return d;
  size_t slash = sourceFile.rfind('/');
  std::string dir = slash == std::string::npos ? "." : sourceFile.substr(0, slash);
  if (::access(dir.c_str(), W_OK) == 0) return dir + "/__pycache__/kjit";
  const char *home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/kjit";
}

}  // namespace kjit::jit
