// py_common.h - what the binding files share: the exception that carries
// diagnostics to Python, and the define_<area> functions.
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/jit/Errors.h"

namespace kjit::py {

// Sets the Python exception (kjit.errors.*) for a compile failure.
void raiseCompileFailure(const jit::CompileFailure &f);
// Sets the Python exception for a driver error (TypeError, ValueError,
// kjit.cuda.errors.LaunchConfigError, RuntimeError).
void raiseJitError(const jit::JitError &e);

// Sets the Python exception for the C++ exception being handled, as the
// module's translators do; for the tp_call slots, which pybind11 does not
// wrap. Call it from a catch block.
void setErrorFromCurrentException();

void define_frontend(pybind11::module_ &m);
void define_jit(pybind11::module_ &m);
void define_ufunc(pybind11::module_ &m);
void define_launch(pybind11::module_ &m);
void define_cuda(pybind11::module_ &m);
void define_hip(pybind11::module_ &m);
void define_records(pybind11::module_ &m);

}  // namespace kjit::py
