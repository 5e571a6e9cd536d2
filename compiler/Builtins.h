// Builtins.h - typing of calls to builtins, math, cmath, NumPy functions,
// dtype casts and array methods.
//
// The typer resolves a callee to a compile-time Function type whose symbol
// is a qualified name ("builtins.min", "math.sqrt", "numpy.zeros",
// "array.sum"), or to a Dtype (a cast); typeBuiltinCall turns the call into
// typed IR through the TyperServices the function typer provides, by the
// registry of built-ins (compiler/builtins/BuiltinCall.h: one table per
// family, keyed by module and name).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/Context.h"
#include "compiler/GlobalEnv.h"
#include "compiler/IR.h"

namespace kjit {

struct CallSite {
  SourceLoc loc;
  std::vector<ir::Expr *> args;
  std::vector<std::pair<std::string, ir::Expr *>> kwargs;
  const ast::CallExpr *ast = nullptr;
};

// What the function typer offers to the builtins' typing.
class TyperServices {
 public:
  virtual ~TyperServices() = default;
  virtual Context &context() = 0;
  virtual ir::Expr *convert(ir::Expr *e, const Type *t) = 0;
  virtual ir::Expr *truth(ir::Expr *e) = 0;
  virtual ir::Expr *binary(ast::BinaryOp op, ir::Expr *l, ir::Expr *r, SourceLoc loc) = 0;
  virtual ir::Expr *unaryOp(ast::UnaryOp op, ir::Expr *v, SourceLoc loc) = 0;
  virtual ir::Expr *compare(ast::CmpOp op, ir::Expr *l, ir::Expr *r, SourceLoc loc) = 0;
  virtual ir::Expr *error(DiagCategory c, SourceLoc loc, std::string msg) = 0;
  virtual ir::Expr *constInt(int64_t v, SourceLoc loc) = 0;
  // `e`, or where `e` reads a local Numba would type as a literal (`n = 16`,
  // `shape = (16, n)`, assigned once), its value as constants; for the
  // places that need a constant.
  virtual ir::Expr *literalLocal(ir::Expr *e) = 0;
  virtual ir::Expr *constFloat(double v, SourceLoc loc) = 0;
  virtual ir::Const *constOf(const Type *t, SourceLoc loc) = 0;
  virtual ir::Intrinsic *intrinsic(ir::IntrinsicId id, std::vector<ir::Expr *> args,
                                   const Type *type, SourceLoc loc) = 0;
  // cond ? a : b, with a and b unified (as the conditional expression).
  virtual ir::Expr *select(ir::Expr *cond, ir::Expr *a, ir::Expr *b, SourceLoc loc) = 0;
  // True when compiling for a GPU (the kernel language is available, host
  // allocation is not).
  virtual bool cudaTarget() const = 0;
  // A performance warning (reported once, by the final typing pass).
  virtual void performanceWarning(SourceLoc loc, std::string msg) = 0;
  // A call of a kjit function (specialised for the arguments' types); null
  // with diagnostics when it does not type.
  virtual ir::Expr *callFunction(std::shared_ptr<FunctionSource> fn, std::vector<ir::Expr *> args,
                                 SourceLoc loc) = 0;
};

// The float32 expression inside `e` that NumPy's rules promoted to float64
// (float32 * int64 is float64), or null.
const ir::Expr *promotedFloat32(const ir::Expr *e);

// A builtin name (range, len, abs, ValueError, ...) as a global value.
std::optional<GlobalValue> builtinGlobal(const std::string &name);

// `module.attr` for the modules kernels know (math, cmath, numpy, kjit,
// kjit.cuda); nullopt when the attribute is not usable in kernels. The
// library's functions (np.linspace) are `session`'s.
std::optional<GlobalValue> moduleAttribute(Session &session, const std::string &module,
                                           const std::string &attr);

// Types a call of `callee` (a Function or Dtype type). Reports errors.
ir::Expr *typeBuiltinCall(TyperServices &ts, const Type *callee, CallSite &site);

// Lists (builtins/Containers.cpp): the library's primitives np._lget, _lset,
// _lresize, _lnew, _ldtype (null when `f` is none of them), and
// list.<method>() with the list first in site.args.
bool isListPrimitive(const std::string &f);
ir::Expr *typeListPrimitive(TyperServices &ts, const std::string &f, CallSite &site);
ir::Expr *typeListMethod(TyperServices &ts, const std::string &f, CallSite &site);
// dict.<method>() with the dict first in site.args.
ir::Expr *typeDictMethod(TyperServices &ts, const std::string &f, CallSite &site);
// s.add(x) ... (builtins/Containers.cpp): the builtins library's _set_<method>.
ir::Expr *typeSetMethod(TyperServices &ts, const std::string &f, CallSite &site);
// s.upper() ... (builtins/Containers.cpp): the builtins library's _str_<method>.
ir::Expr *typeStrMethod(TyperServices &ts, const std::string &f, CallSite &site);
// The elements `for x in t` gives (list, 1-d array, tuple of one type, set,
// dict keys), or null.
const Type *iteratedType(const Type *t);
// Whether a value of type `value` can be stored in a slot (a list's
// element, a @jitclass field) of type `slot`, converted: numbers (not
// complex into real), or what unifies to the slot's type.
bool storableIn(TypeContext &tc, const Type *slot, const Type *value);

// builtins/Cuda.cpp: the kernel language. `module` is "kjit.cuda" or one of
// its namespaces ("kjit.cuda.threadIdx", "kjit.cuda.shared" ...). Returns
// null when the attribute is a namespace or function, which
// moduleAttribute() resolves.
ir::Expr *typeCudaAttribute(TyperServices &ts, const std::string &module, const std::string &attr,
                            SourceLoc loc, bool cudaTarget);
// cuda.threadIdx, blockIdx, blockDim, gridDim: the module name and the
// intrinsic that reads an axis (its argument: 0, 1 or 2).
struct Dim3Namespace {
  const char *name;
  ir::IntrinsicId id;
};
const std::vector<Dim3Namespace> &dim3Namespaces();

}  // namespace kjit
