// UfuncSource.cpp - NumPy ufuncs on arrays as loops in the kernel language.
//
// `np.hypot(a, 2.0, out)` with `a` 2-D becomes a call of
//
//   def ufunc_loop(a0, a1, out):
//       n0 = out.shape[0]
//       n1 = out.shape[1]
//       s0_0 = 1
//       if a0.shape[0] != n0:
//           if a0.shape[0] != 1:
//               raise ValueError(...)
//           s0_0 = 0
//       ...
//       if s0_0 == 1 and s0_1 == 1:
//           for i0 in range(n0):
//               for i1 in range(n1):
//                   out[i0, i1] = np.hypot(a0[i0, i1], a1)
//       else:
//           for i0 in range(n0):
//               for i1 in range(n1):
//                   out[i0, i1] = np.hypot(a0[i0 * s0_0, i1 * s0_1], a1)
//       return out
//
// so broadcasting follows NumPy's rule (operands aligned on their last
// dimensions, a dimension of 1 repeats), each element is computed by the
// scalar ufunc the typer already has, and the store converts to out's dtype.
// Without `out` (CPU functions only: kernels cannot allocate) the result
// shape is the operands' broadcast shape and the result a new array. An
// array expression (ArrayExprs.h) gives the element's text instead of a
// ufunc's name; in a parallel function the outer loop is a prange.
#include "compiler/UfuncSource.h"

#include <fmt/format.h>

#include "compiler/ModuleEnv.h"

namespace kjit {

namespace {

std::string indexList(const std::string &var, unsigned ndim, unsigned first,
                      const std::string &strides) {
  std::string r = var + "[";
  for (unsigned m = 0; m < ndim; ++m) {
    if (m) r += ", ";
    r += fmt::format("i{}", first + m);
    if (!strides.empty()) r += fmt::format(" * {}_{}", strides, m);
  }
  return r + "]";
}

}  // namespace

std::string ufuncLoopSource(const UfuncLoopSpec &spec) {
  const unsigned n = spec.ndim;
  const bool allocate = !spec.allocateDtype.empty();
  std::string params;
  for (size_t k = 0; k < spec.inputs.size(); ++k) params += fmt::format("a{}, ", k);
  params += allocate ? "" : "out";
  if (allocate) params.resize(params.size() - 2);
  std::string mismatch =
      spec.element.empty()
          ? fmt::format("raise ValueError(\"np.{}(): operands could not be broadcast together\")",
                        spec.ufunc)
          : "raise ValueError(\"operands could not be broadcast together\")";
  std::string s =
      "import numpy as np\nfrom kjit import prange\n\n\ndef ufunc_loop(" + params + "):\n";
  if (allocate) {
    for (unsigned j = 0; j < n; ++j) s += fmt::format("    n{} = 1\n", j);
    for (size_t k = 0; k < spec.inputs.size(); ++k) {
      unsigned d = spec.inputs[k];
      for (unsigned m = 0; m < d; ++m) {
        unsigned j = n - d + m;
        s += fmt::format("    if a{0}.shape[{1}] != 1:\n", k, m);
        s += fmt::format("        if n{0} != 1 and n{0} != a{1}.shape[{2}]:\n", j, k, m);
        s += "            " + mismatch + "\n";
        s += fmt::format("        n{0} = a{1}.shape[{2}]\n", j, k, m);
      }
    }
    std::string shape;
    for (unsigned j = 0; j < n; ++j) shape += fmt::format("n{}, ", j);
    s += fmt::format("    out = np.empty(({}), np.{})\n", shape, spec.allocateDtype);
  } else {
    for (unsigned j = 0; j < n; ++j) s += fmt::format("    n{0} = out.shape[{0}]\n", j);
  }
  // A dimension of 1 against a longer one repeats: its stride is 0.
  for (size_t k = 0; k < spec.inputs.size(); ++k) {
    unsigned d = spec.inputs[k];
    for (unsigned m = 0; m < d; ++m) {
      unsigned j = n - d + m;
      s += fmt::format("    s{0}_{1} = 1\n", k, m);
      s += fmt::format("    if a{0}.shape[{1}] != n{2}:\n", k, m, j);
      s += fmt::format("        if a{0}.shape[{1}] != 1:\n", k, m);
      s += "            " + mismatch + "\n";
      s += fmt::format("        s{0}_{1} = 0\n", k, m);
    }
  }
  // The loop nest storing the element's value, operands indexed with their
  // broadcast strides or, where no operand broadcasts, plainly (a loop the
  // vectorizer takes).
  auto loops = [&](const std::string &base, bool strided) {
    std::string r, indent = base;
    for (unsigned j = 0; j < n; ++j) {
      r += indent +
           fmt::format("for i{0} in {1}(n{0}):\n", j, j == 0 && spec.parallel ? "prange" : "range");
      indent += "    ";
    }
    std::vector<std::string> access;
    for (size_t k = 0; k < spec.inputs.size(); ++k) {
      unsigned d = spec.inputs[k];
      std::string a = fmt::format("a{}", k);
      access.push_back(d == 0 ? a : indexList(a, d, n - d, strided ? fmt::format("s{}", k) : ""));
    }
    std::string value;
    if (spec.element.empty()) {
      std::string operands;
      for (size_t k = 0; k < access.size(); ++k) operands += (k ? ", " : "") + access[k];
      value = fmt::format("np.{}({})", spec.ufunc, operands);
    } else {
      // $k$ -> operand k's element.
      for (size_t i = 0; i < spec.element.size(); ++i) {
        if (spec.element[i] != '$') {
          value += spec.element[i];
          continue;
        }
        size_t end = spec.element.find('$', i + 1);
        value += access[std::stoul(spec.element.substr(i + 1, end - i - 1))];
        i = end;
      }
    }
    return r + indent + indexList("out", n, 0, "") + " = " + value + "\n";
  };
  std::string plain;
  for (size_t k = 0; k < spec.inputs.size(); ++k)
    for (unsigned m = 0; m < spec.inputs[k]; ++m)
      plain += fmt::format("{}s{}_{} == 1", plain.empty() ? "" : " and ", k, m);
  if (plain.empty()) {
    s += loops("    ", false);
  } else {
    s += "    if " + plain + ":\n" + loops("        ", false);
    s += "    else:\n" + loops("        ", true);
  }
  s += "    return out\n";
  return s;
}

std::string ufuncLoopKey(const UfuncLoopSpec &s) {
  std::string k = s.ufunc + "/" + std::to_string(s.ndim) + "/" + s.allocateDtype + "/";
  for (unsigned d : s.inputs) k += std::to_string(d) + ",";
  return k + fmt::format("/{}/{}/{}", s.element, s.parallel, s.fastmath);
}

std::shared_ptr<FunctionSource> makeUfuncLoopFunction(Session &session, const UfuncLoopSpec &spec,
                                                      uint64_t ordinal) {
  std::shared_ptr<FunctionSource> fn = functionFromModule(
      session, "<kjit ufunc np." + spec.ufunc + ">", ufuncLoopSource(spec), "ufunc_loop");
  // An identity of its own, apart from the small numbers kjitc's modules use,
  // the cmath functions' and the addresses Python's functions have.
  if (fn) {
    fn->identity = 0x7566756e63000000ull + ordinal;
    fn->parallel = spec.parallel;
    fn->fastmath = spec.fastmath;
    fn->numpyErrors = true;  // ufuncs on arrays: 1 / 0 is inf, as NumPy's loops give
  }
  return fn;
}

}  // namespace kjit
