// HostJitRuntime.cpp - the host JIT with the host runtime's entry points.
// Part of the umbrella library kjit_core, not of kjit_targets: it joins two
// layers (targets/host and runtime/host) that do not use each other, as the
// JIT driver (runtime/jit) will when it exists.
#include "targets/host/HostJit.h"

#include "runtime/host/HostRuntime.h"

namespace kjit {

std::unique_ptr<HostJit> HostJit::create(std::string &error) {
  return create(runtimeSymbols(), error);
}

}  // namespace kjit
