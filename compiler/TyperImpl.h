// TyperImpl.h - the classes behind inferTypes, shared by the typer's files:
// TypeInference.cpp (the passes), TypeExpressions.cpp, TypeOperators.cpp,
// TypeSubscripts.cpp, TypeCalls.cpp, TypeStatements.cpp,
// TypeAssignments.cpp, TypeLoops.cpp and the Type*.cpp files of lists,
// sets, strings, records, @jitclass and nested defs (and CacheKey.cpp).
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "compiler/Builtins.h"
#include "compiler/TypeInference.h"

namespace kjit::typing {

// The IR comparison of <, >, <=, >=, ==, != (none for is, in ...)
// (TypeOperators.cpp).
std::optional<ir::BinOp> comparisonOp(ast::CmpOp op);

using namespace ir;

constexpr int kMaxPasses = 16;

struct SpecKey {
  uint64_t identity;
  std::string args;
  bool operator<(const SpecKey &o) const {
    return identity != o.identity ? identity < o.identity : args < o.args;
  }
};

std::string typeListKey(const std::vector<const Type *> &ts);

// Types every function of one program; one instance per inferTypes call.
class ProgramTyper {
 public:
  ProgramTyper(Context &ctx, Target target) : ctx(ctx), target(target) {}
  Context &ctx;
  Target target;
  std::map<SpecKey, Function *> done;
  std::set<SpecKey> inProgress;
  std::vector<Function *> order;
  std::map<const Type *, std::shared_ptr<FunctionSource>> jitFunctions;
  // The enum classes the program names, by qualified name: their members.
  std::map<std::string, GlobalValue> enumClasses;
  // The declared signatures of device functions (GlobalValue::signatures),
  // by their function type: calls convert to the best one.
  std::map<const Type *, std::vector<std::string>> declaredSignatures;
  unsigned symbolCounter = 0;

  // Types `fn` for `args`; null (with diagnostics) on failure. `literals`
  // (by position, null where none) are integer literals, or tuples of them,
  // the function is specialised on (literalArg).
  Function *specialize(std::shared_ptr<FunctionSource> fn, const std::vector<const Type *> &args,
                       SourceLoc callLoc, const Type *declaredReturn = nullptr,
                       const std::vector<const Expr *> &literals = {});
  // The definition of `fn` in its source (parsed once), or null.
  const ast::FunctionDef *definition(const FunctionSource &fn);
  std::map<uint64_t, const ast::FunctionDef *> definitions;
  // Nested defs made function values (TypeNestedDefs.cpp), once each.
  std::map<const ast::FunctionDef *, std::shared_ptr<FunctionSource>> nestedSources;
  std::map<SpecKey, Function *> inProgressFunctions;
  std::set<SpecKey> failed;  // reported once; later requests get null quietly
  // Recursion without a declared return type, as Numba types it: the return
  // type comes from the returns that do not recurse, and the passes repeat
  // until it settles. `recursive` holds the functions a call reached while
  // they were being typed. When a call reaches one whose return type is not
  // known yet, specialize gives null and names in `unresolved` the
  // functions being typed that the answer waits for; a function typed while
  // one of its callers' types is unknown is provisional: typed again later,
  // never kept.
  std::set<SpecKey> recursive;
  std::set<SpecKey> unresolved;
  bool kernel = false;
  const Type *jitFunctionType(std::shared_ptr<FunctionSource> fn) {
    const Type *t = ctx.types.function(fmt::format("jit:{}:{}", fn->name, fn->identity));
    jitFunctions[t] = std::move(fn);
    return t;
  }
};

// Whether running `body` can reach its end (TypeStatements.cpp).
bool canFallOff(const ast::StmtList &body);

struct VarInfo {
  Var *var = nullptr;
  const Type *type = nullptr;  // unified so far
  const Type *firstType = nullptr;
  SourceLoc firstLoc;
  bool conflictReported = false;  // an error was reported for it: reads stay quiet
};

class FunctionTyper final : public TyperServices {
 public:
  FunctionTyper(ProgramTyper &prog, std::shared_ptr<FunctionSource> src,
                const ast::FunctionDef &def, const std::vector<const Type *> &args, Function *out,
                const Type *declaredReturn, std::vector<const Expr *> literals = {})
      : prog_(prog),
        ctx_(prog.ctx),
        tc_(prog.ctx.types),
        ir_(prog.ctx.ir),
        src_(std::move(src)),
        def_(def),
        args_(args),
        fn_(out),
        declared_(declaredReturn),
        literals_(std::move(literals)) {}

  bool run();
  SpecKey key_;  // this specialisation's
  // After run(): the typing waited for a function still being typed (not
  // this one), so it was left unfinished (no final pass, no diagnostics).
  bool provisional() const { return !waitsFor_.empty(); }
  const std::set<SpecKey> &waitsFor() const { return waitsFor_; }

 private:
  ProgramTyper &prog_;
  Context &ctx_;
  TypeContext &tc_;
  Builder &ir_;  // every node of the function is made here
  std::shared_ptr<FunctionSource> src_;
  const ast::FunctionDef &def_;
  std::vector<const Type *> args_;
  Function *fn_;
  const Type *declared_;  // the signature's return type, or null
  // Parameters bound at compile time: a compile-time value (a dtype, a
  // function) or an integer literal the callee never assigns; their reads
  // are that value (the literal's node, copied).
  std::vector<const Expr *> literals_;
  std::map<std::string, size_t> boundParams_;
  // Locals Numba types as literals: assigned once in the whole function
  // (after splitVariables), with an integer literal, a global integer,
  // another such local, or a tuple of those. Where a constant is required
  // (an array's shape, a heterogeneous tuple's index) their reads are
  // their values (literalLocal); elsewhere they are plain variables.
  struct LiteralLocal {
    bool tuple = false;
    std::vector<int64_t> values;
  };
  std::map<std::string, LiteralLocal> literalLocals_;
  std::map<const Var *, const LiteralLocal *> literalVars_;
  // Locals with one definition (as literalLocals_ counts them); those
  // assigned a compile-time value (a module, function or dtype:
  // `g = cuda.cg.this_grid()`, `f = math.sqrt`) read as that value.
  std::set<std::string> singleDefs_;
  std::map<std::string, const Type *> compileTimeLocals_;
  void findLiteralLocals();
  Expr *boundParam(size_t i, SourceLoc loc);
  // The nested defs seen so far in this pass: name -> function type; reads
  // of the name are that function (TypeNestedDefs.cpp); null when its
  // captures were refused (reported there).
  std::map<std::string, const Type *> nestedFns_;
  void nestedDef(const ast::FunctionDef *d);

 public:
  bool isKernel_ = false;  // the entry of a CUDA kernel program
 private:
  bool final_ = false;  // report diagnostics and keep the IR
  bool changed_ = false;
  std::map<std::string, VarInfo> vars_;
  std::set<std::string> locals_;
  const Type *returnType_ = nullptr;
  std::set<SpecKey> waitsFor_;  // see provisional()
  SourceLoc firstReturnLoc_;
  unsigned loopDepth_ = 0;
  unsigned tempCounter_ = 0;
  std::vector<std::pair<std::string, GlobalValue>> globalsCache_;

  // ---- helpers ----
  Expr *unknown(SourceLoc loc) { return ir_.constant(nullptr, loc); }  // type null
  // An empty list, dict or set whose item types nothing gives (a
  // temporary: named ones are checkUndefinedLists' business).
  void undefinedContainer(const Expr *e);
  Expr *foldIntConstants(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc);
  static bool known(const Expr *e) { return e && e->type; }

  Expr *typingError(SourceLoc loc, std::string msg) {
    return error(DiagCategory::Typing, loc, std::move(msg));
  }
  Expr *unsupported(SourceLoc loc, std::string msg) {
    return error(DiagCategory::Unsupported, loc, std::move(msg));
  }

  Expr *literalLocal(Expr *e) override;
  Expr *constInt(int64_t v, SourceLoc loc, const Type *t) {
    Const *c = constOf(t ? t : tc_.int64(), loc);
    c->i = v;
    return c;
  }
  Expr *constFloat(double v, SourceLoc loc, const Type *t) {
    Const *c = constOf(t ? t : tc_.float64(), loc);
    c->f = v;
    return c;
  }
  Expr *constBool(bool v, SourceLoc loc) {
    Const *c = constOf(tc_.boolean(), loc);
    c->i = v;
    return c;
  }

  Expr *castTo(Expr *e, const Type *t);
  // The value of an OptionalType(T) (TypeError when it is None, at run
  // time, as Numba's); anything else as it is.
  Expr *unwrapOptional(Expr *e) {
    return known(e) && e->type->isOptional() ? ir_.cast(e->type->dtype(), e, e->loc) : e;
  }
  // Enums: a member's value; an IntEnum member as its integer (others as
  // they are); the member `name` of an enum class (null when none).
  Expr *enumValue(Expr *e) { return ir_.cast(e->type->dtype(), e, e->loc); }
  Expr *unwrapIntEnum(Expr *e) {
    return known(e) && e->type->isEnumMember() && e->type->isIntEnum() ? enumValue(e) : e;
  }
  Expr *enumMember(const Type *cls, const std::string &name, SourceLoc loc);
  Expr *compareEnums(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc);
  Expr *callDeclared(const std::string &name, const Type *fnType,
                     const std::vector<std::string> &signatures, std::vector<Expr *> args,
                     SourceLoc loc);
  void beginPass(bool final);
  void checkReadsBeforeAssignment();
  void markFailed(const ast::Expr *target);
  std::set<std::string> unboundReported_;
  Var *newVar(const std::string &name, const Type *t, SourceLoc loc);
  Var *temp(Expr *value, Block &out);
  bool zeroDimWalk(const Type *t, SourceLoc loc);
  bool walkable(const Type *t);
  VarRef *varRef(Var *v, SourceLoc loc);
  ForRange *indexLoop(Var *iv, Expr *stop, SourceLoc loc);
  void loopBody(const ast::ForStmt *f, ForRange *loop, Block &out);
  Expr *sequenceElement(Var *seq, Expr *index, SourceLoc loc);
  Expr *sequenceLength(Var *seq, SourceLoc loc);
  void enumerateOrZip(const ast::ForStmt *f, const ast::CallExpr *call, bool isEnumerate,
                      Block &out);
  Var *enumerateStart(const ast::Expr *e, Block &out);
  void assignVar(const std::string &name, Expr *value, SourceLoc loc, Block &out);
  std::optional<GlobalValue> lookupGlobal(const std::string &name);
  Expr *fromGlobal(const GlobalValue &g, const std::string &name, SourceLoc loc);

  // ---- statements ----
  void block(const ast::StmtList &in, Block &out);
  void stmt(const ast::Stmt *s, Block &out);
  void assignTarget(const ast::Expr *target, Expr *value, Block &out);
  void forLoop(const ast::ForStmt *f, Block &out);
  void literalUnroll(const ast::ForStmt *f, const ast::CallExpr *call, Block &out);
  // Names read and assigned under another name: the target of a
  // literal_unroll loop, one variable per element (its own type).
  std::map<std::string, std::string> renames_;
  const std::string &localName(const std::string &n) const {
    auto r = renames_.find(n);
    return r == renames_.end() ? n : r->second;
  }
  bool checkParallelBody(const ast::StmtList &body, unsigned nestedLoops);
  void returnStmt(const ast::ReturnStmt *r, Block &out);
  void returnValue(const ast::Expr *value, SourceLoc loc, Block &out);
  void tryStmt(const ast::TryStmt *t, Block &out);
  // A function that returns a value on some paths and reaches its end on
  // another returns None there, as in Python: its type is the value's
  // OptionalType (as Numba types it), and the end returns None.
  void implicitReturn(Block &out) {
    if (declared_ || !returnType_ || returnType_->isNone() || isKernel_ || !canFallOff(def_.body))
      return;
    const Type *u = unify(tc_, returnType_, tc_.none());
    if (!u) return;  // (the lowering returns the type's zero there, as before)
    if (u != returnType_) {
      returnType_ = u;
      changed_ = true;
    }
    out.push_back(ir_.returnStmt(castTo(constOf(tc_.none(), def_.loc), returnType_), def_.loc));
  }
  void raiseStmt(const ast::RaiseStmt *r, Block &out);

  // ---- expressions ----
  Expr *expr(const ast::Expr *e);
  Expr *name(const ast::NameExpr *n);
  Expr *unary(const ast::UnaryExpr *u);
  Expr *compare(const ast::CompareExpr *c);
  Expr *compareOne(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc);
  Expr *boolOp(const ast::BoolOpExpr *b);
  Expr *ifExpr(const ast::IfExpr *e);
  Expr *attribute(const ast::AttributeExpr *a);
  Expr *subscript(const ast::SubscriptExpr *s);
  Expr *call(const ast::CallExpr *c);
  Expr *arrayLiteral(const ast::CallExpr *c, const std::string &fname);
  Expr *intIndex(const ast::Expr *e, Expr *v);
  bool expandEllipsis(std::vector<const ast::Expr *> &idx, std::vector<Expr *> &typed,
                      unsigned ndim, SourceLoc loc);
  bool indexList(const ast::Expr *index, std::vector<const ast::Expr *> &idx,
                 std::vector<Expr *> &typed);

  // ---- lists (TypeLists.cpp) ----
  Expr *listLiteral(const ast::ListExpr *l);
  // A call of the builtins library's `name` (unknown when it does not type).
  Expr *listLib(const char *name, std::vector<Expr *> args, SourceLoc loc);
  Expr *listSubscript(Expr *l, const std::vector<const ast::Expr *> &idx, SourceLoc loc);
  void refineList(const ast::Expr *receiver, const std::string &method,
                  const std::vector<Expr *> &args);
  void checkUndefinedLists();
  // Dicts (TypeLists.cpp): `{}` of type `t` (its types may be undefined),
  // {k: v ...}, and `d[k] = v` giving `{}` its types.
  Expr *emptyDict(const Type *t, SourceLoc loc);
  Expr *dictLiteral(const ast::DictExpr *d);
  void refineDict(const ast::Expr *receiver, const Type *key, const Type *value);
  // Sets (TypeSets.cpp): {a, b}, set(), set(seq); set() takes its element
  // type from the first add/update (refineSet); | & - ^ and comparisons.
  Expr *setLiteral(const ast::DictExpr *d);
  // Strings (TypeStrings.cpp): a constant as a run-time str (other values
  // unchanged); s[i], s[a:b]; + and * (null: not strings); comparisons; in.
  Expr *runtimeString(Expr *e);
  bool sliceParts(const ast::SliceExpr *sl, std::vector<Expr *> &args, SourceLoc loc);
  Expr *sliceOf(Expr *seq, const ast::SliceExpr *sl, SourceLoc loc);  // (TypeLists.cpp)
  Expr *assignSliceOf(Expr *list, const ast::SliceExpr *sl, Expr *items,
                      SourceLoc loc);  // (TypeLists.cpp)
  Expr *strSubscript(Expr *s, const std::vector<const ast::Expr *> &idx, SourceLoc loc);
  Expr *strBinary(ast::BinaryOp op, Expr *l, Expr *r, SourceLoc loc);
  Expr *strCompare(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc);
  Expr *strContains(Expr *s, Expr *part, SourceLoc loc);
  // range(...) as list()'s or set()'s argument: the list of its numbers;
  // null when `e` is no call of range (TypeCalls.cpp).
  Expr *rangeList(const ast::Expr *e);
  Expr *setCall(const ast::CallExpr *c);
  // numba.typed's List(), List(seq), List.empty_list(T), Dict(),
  // Dict.empty(K, V): kjit's lists and dicts (TypeLists.cpp).
  Expr *typedContainer(const ast::CallExpr *c, const std::string &fn);
  void refineSet(const ast::Expr *receiver, const std::string &method,
                 const std::vector<Expr *> &args);
  Expr *setBinary(ast::BinaryOp op, Expr *l, Expr *r, SourceLoc loc);
  Expr *setCompare(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc);

  // ---- records (TypeRecords.cpp) ----
  // The type a field reads as: its scalar or record type, or a C view of a
  // nested array.
  const Type *fieldValueType(const RecordField &f, bool readonly);
  // The field `name` of `rec`, or null after an error (no such field; on
  // CUDA, a field at an offset its type's alignment does not divide).
  const RecordField *findField(const Type *rec, const std::string &name, SourceLoc loc);
  // The field a record subscript names: a constant string, or a constant
  // position; nullopt after an error.
  std::optional<std::string> fieldNameOf(const Type *rec, Expr *index, SourceLoc loc);
  Expr *recordGet(Expr *rec, const std::string &name, SourceLoc loc);
  // @jitclass (TypeJitClass.cpp): obj.attr (a field, a property, a method
  // or static method to call), Class.attr (a static method), obj.attr = v
  // (a field or a property's setter; an expression to evaluate, or null),
  // and the function a "jitclass:" / "jitmethod:" / "jitstatic:" callee
  // names (null after an error).
  Expr *jitClassGet(Expr *obj, const std::string &attr, SourceLoc loc);
  Expr *jitClassAttribute(const std::string &id, const std::string &attr, SourceLoc loc);
  Expr *jitClassSet(Expr *obj, const std::string &attr, Expr *value, SourceLoc loc);
  std::shared_ptr<FunctionSource> jitClassFunction(const std::string &symbol, SourceLoc loc);
  Expr *recordSubscript(Expr *rec, const ast::SubscriptExpr *s);
  // ary.name for an array of records; null when the record has no such field.
  Expr *recordArrayField(Expr *ary, const std::string &name, SourceLoc loc);
  void recordSet(Expr *rec, const std::string &name, Expr *value, SourceLoc loc, Block &out);
  // Whether `target` (r.a, r['a'], r[0]) is a field of a record: then `rec`
  // is the record (unknown after an error) and `name` the field. `rec`
  // comes in as the target's object when the caller typed it, else null
  // (typed here; out: that value even when it is no record).
  bool recordTarget(const ast::Expr *target, Expr *&rec, std::string &name);
  bool augAssignField(const ast::AugAssignStmt *a, Expr *object, Block &out);

 public:
  // TyperServices, for Builtins.cpp.
  Context &context() override { return ctx_; }
  Expr *convert(Expr *e, const Type *t) override { return castTo(e, t); }
  Expr *truth(Expr *e) override;
  Expr *binary(ast::BinaryOp op, Expr *l, Expr *r, SourceLoc loc) override;
  // A located error when a or b is (an array of) an 8-bit float, else null.
  Expr *float8Operation(const Type *a, const Type *b, SourceLoc loc);
  // `l op r` with an array operand (ArrayExprs.h): into `out` (`out op= r`,
  // in place; `l` is out or its view), or a new array when out is null.
  Expr *binaryInto(ast::BinaryOp op, Expr *l, Expr *r, Expr *out, SourceLoc loc);
  Expr *unaryOp(ast::UnaryOp op, Expr *v, SourceLoc loc) override;
  Expr *compare(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) override {
    return compareOne(op, l, r, loc);
  }
  Expr *select(Expr *cond, Expr *a, Expr *b, SourceLoc loc) override;
  Expr *error(DiagCategory cat, SourceLoc loc, std::string msg) override {
    if (final_) ctx_.diags.error(cat, loc, cudaTarget() ? std::move(msg) : forHost(msg));
    return unknown(loc);
  }
  // A message written for kernels ("... is not supported in kernels"), said
  // of a CPU (@jit) function.
  static std::string forHost(const std::string &msg);
  Expr *constInt(int64_t v, SourceLoc loc) override { return constInt(v, loc, nullptr); }
  Expr *constFloat(double v, SourceLoc loc) override { return constFloat(v, loc, nullptr); }
  Const *constOf(const Type *t, SourceLoc loc) override { return ir_.constant(t, loc); }
  Intrinsic *intrinsic(IntrinsicId id, std::vector<Expr *> args, const Type *type,
                       SourceLoc loc) override {
    return ir_.intrinsic(id, std::move(args), type, loc);
  }

 private:
  Function *specializeCallee(const Type *fnType, const std::vector<const Type *> &args,
                             SourceLoc loc, const std::vector<const Expr *> &literals = {}) {
    auto it = prog_.jitFunctions.find(fnType);
    if (it == prog_.jitFunctions.end()) return nullptr;
    return prog_.specialize(it->second, args, loc, nullptr, literals);
  }
  bool boundscheck() const { return src_->boundscheck || ctx_.checkBounds; }
  Expr *callFunction(std::shared_ptr<FunctionSource> fn, std::vector<Expr *> args,
                     SourceLoc loc) override {
    // As at a user's call: compile-time values (a string, a dtype) specialise
    // the callee and are not passed at run time.
    // Parameters left out take their defaults (constants).
    if (const ast::FunctionDef *d = prog_.definition(*fn))
      for (size_t k = args.size(); k < d->params.size() && d->params[k].defaultValue; ++k) {
        Expr *v = expr(d->params[k].defaultValue);
        if (!known(v)) return nullptr;
        args.push_back(v);
      }
    std::vector<const Type *> types;
    std::vector<Expr *> runtimeArgs;
    for (Expr *a : args) {
      // `[]` before a later pass gives it a type: typed then. In the final
      // pass it has none (`len({})`): an error, never a silent result.
      if (hasUndefinedList(a->type)) {
        if (final_ && !isa<VarRef>(a)) undefinedContainer(a);
        return nullptr;
      }
      types.push_back(a->type);
      if (a->type->isRuntime()) runtimeArgs.push_back(a);
    }
    Function *f = specializeCallee(prog_.jitFunctionType(std::move(fn)), types, loc);
    if (!f || !f->returnType) return nullptr;
    return ir_.call(f, std::move(runtimeArgs), loc);
  }
  bool cudaTarget() const override { return prog_.target == Target::CUDA; }
  void performanceWarning(SourceLoc loc, std::string msg) override {
    if (final_) ctx_.diags.warning(DiagCategory::Performance, loc, std::move(msg));
  }
};

// An integer or bool literal, or a tuple of integers (a shape), which a call specialises
// its kjit callee on; literalKey is its text in the specialisation's key.
bool literalArg(const Expr *e);
std::string literalKey(const Expr *e);
// A compile-time value a kjit function can take as an argument: its type
// alone names it (a dtype, a module, a function that is not a bound method,
// an exception class, a string).
bool compileTimeArg(const Type *t);

// Renames the variables of `def` whose assignments form separate webs (no
// read sees values of two of them): each web is a variable of its own type.
void splitVariables(ast::FunctionDef &def);
// Removes the statements of `def` (nested defs included) that no path
// reaches, as CPython's compiler does: code after return, raise, break or
// continue, and the branch of `if <literal>:` not taken. They are neither
// typed nor lowered.
void dropUnreachable(ast::FunctionDef &def);

// Every name assigned anywhere in the function is local to all of it.
void collectLocals(const ast::StmtList &body, std::set<std::string> &out);
void collectTargets(const ast::Expr *t, std::set<std::string> &out);

}  // namespace kjit::typing
