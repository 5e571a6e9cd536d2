// GlobalEnv.h - the values a function's body names that are not its locals.
//
// The decorator (Python) or kjitc (from a module's imports and defs) answers
// lookups. Numbers, tuples of numbers and NumPy arrays are frozen as
// compile-time constants, as Numba does; modules, builtins, NumPy functions,
// dtypes, exception classes and other kjit functions resolve by name.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kjit {

struct FunctionSource;
struct SourceMap;

struct GlobalValue {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    Complex,
    Tuple,
    String,
    Array,           // frozen NumPy array: dtype name, shape, bytes (C order)
    DeviceArray,     // a device array, by reference: dtype name, shape, strides, address
                     // (i), read-only (isUnsigned)
    Module,          // name: "math", "cmath", "numpy", "kjit", "kjit.cuda"
    Function,        // qualified name: "builtins.range", "math.sqrt", "numpy.zeros"
    Dtype,           // scalar type name: "float32"
    ExceptionClass,  // "ValueError"
    JitFunction,     // another kjit function: fn is set
    EnumClass,       // an enum.Enum class: name = its qualified name, i = 1 for an IntEnum,
                     // elems = its members' values, each with name = the member's name
    EnumMember,      // a member: as EnumClass, with elems = the one member
    JitClass,        // a @jitclass class: name = its id (compiler/JitClass.h)
    Unsupported,     // a value kernels cannot use: name = its Python type
  };
  Kind kind = Kind::None;
  int64_t i = 0;
  bool isUnsigned = false;  // Int: a Python int in [2**63, 2**64)
  double f = 0, im = 0;
  std::string name;
  std::vector<GlobalValue> elems;
  // Array constants.
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // DeviceArray
  std::string bytes;
  std::shared_ptr<FunctionSource> fn;
  // JitFunction: the signatures a device function (@cuda.jit(device=True))
  // was declared with: a call converts its arguments to the best one, as
  // Numba's does. hostSignatures: a @jit function compiled for explicit
  // signatures only, which kernels cannot call (as in Numba).
  std::vector<std::string> signatures;
  bool hostSignatures = false;
};

// The source of a function to compile, and how to resolve its globals.
// The fast-math flags of `fastmath=`, as LLVM names them.
namespace FastMath {
enum : uint32_t {
  Reassoc = 1,
  NoNaNs = 2,
  NoInfs = 4,
  NoSignedZeros = 8,
  AllowReciprocal = 16,
  Contract = 32,
  ApproxFunc = 64,
  All = 127
};
// "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn" (and "fast"):
// the flag, or 0 for an unknown name.
uint32_t fromName(const std::string &name);
}  // namespace FastMath

// Where compiled code runs.
enum class Target { Host, CUDA };

struct FunctionSource {
  std::string name;
  std::string filename;
  std::string text;  // the function's text (or a whole module's)
  uint32_t firstLine = 1;
  // Set when `text` was rebuilt from bytecode: where its nodes are in the
  // user's file (frontend/SourceMap.h).
  std::shared_ptr<const SourceMap> sourceMap;
  uint64_t identity = 0;  // distinguishes functions with equal names
  // For name "<lambda>": the parameter names, to tell the lambdas of one
  // source line apart.
  std::vector<std::string> paramNames;
  // Answers a global name; nullopt means "not defined".
  std::function<std::optional<GlobalValue>(const std::string &)> lookup;
  // Code-generation options from the decorator.
  // Fast-math flags (FastMath::*); 0 is IEEE semantics.
  uint32_t fastmath = 0;
  bool boundscheck = false;
  bool parallel = false;
  // error_model='numpy': division by zero gives NumPy's results (inf, nan,
  // 0 for integers) instead of raising ZeroDivisionError.
  bool numpyErrors = false;
};

}  // namespace kjit
