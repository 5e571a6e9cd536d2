// BuiltinCall.h - the registry of built-in functions and methods, and what
// each entry's typing gets: one call being typed.
//
// A built-in is an entry in the table of its family (one file each under
// compiler/builtins/: Python.cpp for builtins and operator, Math.cpp for
// math and cmath, Numpy*.cpp for NumPy, ArrayMethods.cpp for `a.sum()` and
// the reductions, Containers.cpp, Cuda.cpp), keyed by (module, name):
// ("numpy", "sign"), ("array", "sum"), ("math", "sqrt"). The callee's
// symbol ("numpy.sign") names the entry; Registry.cpp lists the families
// and dispatches. Adding a NumPy function is one row
//
//     {"sign", &NumpyCall::sign, ufunc(1)},
//
// plus its typing (a member of the family's BuiltinCall subclass) or, for
// what the kernel language can say itself, its library code
// (compiler/lib/*.kjit).
//
// An entry's form says what the dispatcher does before calling it:
//   Call   the entry sees the call as written (its own keyword and array
//          handling);
//   Positional  keyword arguments are refused first;
//   Ufunc  an elementwise function of `nin` numbers: NumPy's rules apply
//          first (`out=` and arrays become the ufunc loops on the CPU and
//          the explicit-output loops in kernels, with `kind` choosing the
//          loop's types); the entry types one element, so that one typing
//          serves scalars, array expressions and loops;
//   Scalar a function of numbers only: keywords and arrays are refused
//          with the family's message.
// `allocates`: refused in kernels (kernels cannot allocate).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ArrayExprs.h"
#include "compiler/Builtins.h"

namespace kjit {

class BuiltinCall;
using BuiltinTyping = ir::Expr *(*)(BuiltinCall &);

enum class BuiltinForm { Call, Positional, Ufunc, Scalar };

struct BuiltinEntry {
  const char *name;
  BuiltinTyping type;
  BuiltinForm form = BuiltinForm::Call;
  unsigned nin = 0;  // Ufunc: the number of inputs
  UfuncKind kind = UfuncKind::Arithmetic;
  bool allocates = false;
};

// How a row says its form: {"sign", typing, ufunc(1)}.
struct EntryForm {
  BuiltinForm form;
  unsigned nin = 0;
  UfuncKind kind = UfuncKind::Arithmetic;
  bool allocates = false;
};
constexpr EntryForm ufunc(unsigned nin, UfuncKind kind = UfuncKind::Arithmetic) {
  return {BuiltinForm::Ufunc, nin, kind, false};
}
constexpr EntryForm scalar() { return {BuiltinForm::Scalar}; }
constexpr EntryForm positional() { return {BuiltinForm::Positional}; }
constexpr EntryForm allocating() { return {BuiltinForm::Call, 0, UfuncKind::Arithmetic, true}; }

// One family: the entries of `module`, and (for families still written as
// one function of the name: the kernel language, containers) a fallback that
// types any other name of the module.
struct BuiltinFamily {
  const char *module;
  std::vector<BuiltinEntry> entries;
  BuiltinTyping fallback = nullptr;
  // The message for a name the family does not have ({} is its spelling).
  const char *missing = "{}() is not supported in kernels";
};

// A row of a family's table.
inline BuiltinEntry row(const char *name, BuiltinTyping t, EntryForm f = {BuiltinForm::Call}) {
  return {name, t, f.form, f.nin, f.kind, f.allocates};
}

// The entry for `module.name`, or null.
const BuiltinEntry *findBuiltin(std::string_view module, std::string_view name);
const BuiltinFamily *findFamily(std::string_view module);

// The families, each defined in its own file.
const BuiltinFamily &pythonBuiltinsFamily();        // Python.cpp: builtins
const BuiltinFamily &operatorFamily();              // Python.cpp: operator
const BuiltinFamily &numberMethodsFamily();         // Python.cpp: x.conjugate(), n.bit_count()
const BuiltinFamily &mathFamily();                  // Math.cpp
const BuiltinFamily &cmathFamily();                 // Math.cpp
const BuiltinFamily &numpyFamily();                 // Numpy.cpp (its rows from the files below)
const BuiltinFamily &numpyLinalgFamily();           // Numpy.cpp: LAPACK's entries
const BuiltinFamily &numpyRandomFamily();           // Numpy.cpp: the generator's primitives
const BuiltinFamily &arrayMethodsFamily();          // ArrayMethods.cpp
const BuiltinFamily &containerFamilies(int which);  // Containers.cpp: list, dict, set, str
const BuiltinFamily &cudaFamily();                  // Cuda.cpp: the kernel language
class BuiltinCall;
// cuda.wmma.<op>() (Wmma.cpp), reached from the kernel language's rows.
ir::Expr *typeWmma(BuiltinCall &call, const std::string &op);
// cuda.mma_sync, ldmatrix, cp_async, cp_async_commit, cp_async_wait (MmaSync.cpp).
bool isMmaSyncName(const std::string &f);
ir::Expr *typeMmaSync(BuiltinCall &call);
// cuda.mbarrier.*, cuda.tma.*, cuda.wgmma.*, the fences and setmaxnreg (Hopper.cpp).
bool isHopperName(const std::string &f);
ir::Expr *typeHopper(BuiltinCall &call);
// prange and literal_unroll of `module` (kjit, numba): iterables only.
const BuiltinFamily &loopOnlyFamily(const std::string &module);
// NumPy's rows, by file: NumpyUfuncs.cpp (elementwise functions),
// ArrayMethods.cpp (reductions), Numpy.cpp (creation and the rest).
void addNumpyUfuncRows(std::vector<BuiltinEntry> &rows);
void addNumpyReductionRows(std::vector<BuiltinEntry> &rows);
// np._lget and the other list primitives of the library (Containers.cpp).
void addListPrimitiveRows(std::vector<BuiltinEntry> &rows);

// One call being typed: the typer's services, the call site, the entry's
// name (`f`, "sign") and how messages spell it (`name`, "np.sign"); and the
// checks and constructions every family uses.
class BuiltinCall {
 public:
  BuiltinCall(TyperServices &ts, CallSite &site, std::string module, std::string f);
  BuiltinCall(const BuiltinCall &) = default;

  TyperServices &ts;
  TypeContext &tc;
  ir::Builder &ir;
  CallSite &site;
  SourceLoc loc;
  std::string module;  // "numpy"
  std::string f;       // "sign"
  std::string name;    // "np.sign"

  // The call typed as another entry (`np.abs` is `abs`), with this site.
  ir::Expr *as(const std::string &module, const std::string &f);
  // The entry's typing (form rules included) for `module.f` at `site`.
  static ir::Expr *dispatch(TyperServices &ts, CallSite &site, const std::string &module,
                            const std::string &f);

  // Errors: a located diagnostic and a null-typed value.
  ir::Expr *fail(std::string msg);
  ir::Expr *unsupported(std::string msg);
  ir::Expr *none() { return ts.constOf(nullptr, loc); }

  bool arity(const std::string &fname, size_t lo, size_t hi);
  bool noKeywords(const std::string &fname);
  ir::Expr *keyword(const std::string &kw);
  bool onlyKeywords(const std::string &fname, std::initializer_list<const char *> allowed);

  // The float type math on `t` computes in: float32 stays, the rest float64.
  const Type *mathFloat(const Type *t);
  // `e`, or an error (null type) when it is not a number.
  ir::Expr *needNumber(ir::Expr *e, const std::string &fname);
  // On the GPU, float64 math is slow: says so when float32 data got there by
  // promotion.
  void warnIfPromoted(ir::Expr *x, const std::string &fname);
  ir::Expr *mathUnary(ir::IntrinsicId id, const std::string &fname, ir::Expr *x);
  ir::Expr *mathBinary(ir::IntrinsicId id, const std::string &fname, ir::Expr *x, ir::Expr *y);

  // A call of the library's function `fn` (compiler/lib/*.kjit).
  ir::Expr *library(const std::string &fn, std::vector<ir::Expr *> args);
  ir::Expr *boolConst(bool v);
  // The value of an integer or bool constant (a literal, or a local only
  // ever assigned one); nullopt for anything else.
  std::optional<int64_t> constInt(ir::Expr *e);

  // NumPy's helpers, shared by the NumPy files and the array methods.
  bool shapeDims(ir::Expr *shape, std::vector<ir::Expr *> &dims);
  const Type *dtypeArg(ir::Expr *d, const Type *dflt);
  ir::Expr *allocate(const std::string &fname, ir::Expr *shape, ir::Expr *dtypeExpr,
                     const Type *dflt, int fill, ir::Expr *fillValue = nullptr);
  ir::Expr *likeShape(ir::Expr *a);
  ir::Expr *reduction(const std::string &which, ir::Expr *a);
  ir::Expr *reductionAlong(const std::string &which, ir::Expr *a, ir::Expr *axis);
  ir::Expr *astype(ir::Expr *x, const Type *dt);
  ir::Expr *conjugateOf(ir::Expr *x);
  ir::Expr *complexCompare(ast::CmpOp op, ir::Expr *x, ir::Expr *y);
  ir::Expr *isNanValue(ir::Expr *x);
  // min()/max() of numbers or of one sequence.
  ir::Expr *minMax(bool isMax, const std::string &fname);

  // A Ufunc entry applied to arrays: an array expression on the CPU, the
  // loop with an explicit output in kernels.
  ir::Expr *ufuncArrayExpr(const BuiltinEntry &e);
  ir::Expr *ufuncOnArrays(const BuiltinEntry &e);

 private:
  bool ufuncOperands(unsigned nin, std::vector<ir::Expr *> &in, ir::Expr *&out);
};

// The intrinsic a float function of `name` becomes (Math.cpp's tables):
// math's functions of one float (Unary), those and NumPy's other spellings
// (NumpyUnary: arcsin, rint, floor ...), functions of two (Binary).
struct MathIntrinsic {
  const char *name;
  ir::IntrinsicId id;
};
enum class MathArity { Unary, NumpyUnary, Binary };
std::optional<ir::IntrinsicId> mathIntrinsic(MathArity arity, std::string_view name);

// The reductions whose value for a lone number is that number, and those
// NumPy has as np.NAME(a) (ArrayMethods.cpp).
bool reducesScalar(const std::string &which);

// An entry's typing from a member function of a family's BuiltinCall
// subclass: {"sign", via<&NumpyCall::sign>}.
template <class Family, ir::Expr *(Family::*Method)()>
ir::Expr *viaMember(BuiltinCall &c) {
  Family fam(c);
  return (fam.*Method)();
}
template <auto Method>
struct MemberOf;
template <class Family, ir::Expr *(Family::*Method)()>
struct MemberOf<Method> {
  static ir::Expr *call(BuiltinCall &c) { return viaMember<Family, Method>(c); }
};
template <auto Method>
constexpr BuiltinTyping via = &MemberOf<Method>::call;

}  // namespace kjit
