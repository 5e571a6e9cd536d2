// CacheKey.h - what a compiled function depends on, as a deterministic text.
//
// The fingerprint of a function is its source text and, for every global
// name its body mentions, the resolved value; for globals that are other
// kjit functions, their fingerprints in turn (each once). Hashing it with
// the argument types, the options, the target and the compiler version gives
// a cache key that changes whenever anything the compiled code depends on
// changes, callees included.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/GlobalEnv.h"
#include "frontend/support/Hash.h"

namespace kjit {

class Session;

// The fingerprint of `fn`; the @jitclass classes it uses are `session`'s.
std::string dependencyFingerprint(const Session &session, const FunctionSource &fn);

}  // namespace kjit
