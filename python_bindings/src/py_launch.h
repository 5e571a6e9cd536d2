// py_launch.h - `kernel[grid, block, stream, sharedmem]` from Python values:
// the integers are read here, every rule about them is the driver's
// (runtime/jit/LaunchConfig.h). The CUDA launcher, the CPU device's and the
// simulator all parse with this.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "runtime/jit/LaunchConfig.h"

namespace kjit::py {

struct ParsedLaunch {
  jit::LaunchConfig config;
  pybind11::object stream;  // the configuration's third item, or None
};

// `config` is the subscript: a tuple of 2 to 4 items (anything else counts
// as one item). Throws jit::JitError (LaunchConfigError) on a mistake.
ParsedLaunch parseLaunch(pybind11::handle config, const std::string &kernel);

void define_launch(pybind11::module_ &m);

}  // namespace kjit::py
