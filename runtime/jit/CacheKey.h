// CacheKey.h - the disk cache's key: every input that changes compiled code,
// named in one struct and hashed in one place.
#pragma once

#include <string>

namespace kjit::jit {

struct CacheInputs {
  std::string function;  // its name: the entry file's prefix, for people reading the folder
  std::string
      fingerprint;  // compiler/CacheKey.h: its source, its callees' and the globals it reads
  std::string argumentKey;     // the types compiled for (TypeKeys.h)
  std::string declaredReturn;  // an eager signature's return type, or empty
  std::string target;          // the host CPU and its features, or "cuda sm_90"
  std::string options;         // every compile option that changes the code
};

// "<function>-<32 hex digits>" (lambdas: "lambda-..."); the compiler
// version and the cache format are part of what is hashed.
std::string cacheKey(const CacheInputs &in);

// The folder of the disk cache for a function defined in `sourceFile`:
// KJIT_CACHE_DIR, else __pycache__/kjit next to the file when that folder
// can be written (as Numba's), else ~/.cache/kjit.
std::string cacheFolder(const std::string &sourceFile);

}  // namespace kjit::jit
