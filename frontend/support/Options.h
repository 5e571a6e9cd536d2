// Options.h - the options kjit reads from the process environment (KJIT_*,
// and the NUMBA_* ones it honours), read through these helpers only, so that
// "set", "empty" and "0" mean the same thing for every variable:
//   unset or empty  the fallback
//   "0"             false (envFlag)
//   anything else   true (envFlag), or the value
// Variables read today: KJIT_DUMP (dumpRequested), KJIT_NUM_THREADS,
// KJIT_CPU_STACK (runtime/host), KJIT_CUDA_DRIVER, KJIT_CUDA_POOL
// (runtime/cuda), KJIT_BOUNDSCHECK / NUMBA_BOUNDSCHECK, KJIT_CACHE_DIR
// (the binding), CUDA_HOME / CUDA_PATH (targets/nvptx: libdevice).
#pragma once

#include <climits>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace kjit {

// The variable's value; nullopt when it is unset or empty.
std::optional<std::string> envString(const char *name);

// The first of `names` that is set and not empty (KJIT_X before NUMBA_X).
std::optional<std::string> envFirst(std::initializer_list<const char *> names);

// False for "0", true for any other value, `fallback` when unset or empty.
bool envFlag(const char *name, bool fallback = false);

// The variable's leading integer when it lies in [min, max]; `fallback` when
// it is unset, not a number or out of range.
long envInt(const char *name, long fallback, long min = LONG_MIN, long max = LONG_MAX);

// The variable split at `sep`, empty items dropped (KJIT_DUMP=ir,llvm).
std::vector<std::string> envList(const char *name, char sep = ',');

// Whether KJIT_DUMP names `what` ("ir", "llvm", "nvptx-llvm") or "all".
bool dumpRequested(const std::string &what);

}  // namespace kjit
