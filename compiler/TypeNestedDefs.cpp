// TypeNestedDefs.cpp - a `def` inside a kernel or device function.
//
// A nested function is a compile-time function value, as Numba makes the
// closures that may escape (its MakeFunctionToJitFunction pass): it can be
// called, passed to another function (`consumer(inner, 6)`) and called
// there. Its free variables are read as constants: each must be assigned
// once in the enclosing function, from a literal (Numba's rule, with its
// messages), or be a function value (another nested def, a function
// parameter bound at compile time). The nested function is then typed as a
// function of its own, whose globals are those constants and the enclosing
// function's globals.
#include <fmt/format.h>

#include "compiler/TyperImpl.h"

namespace kjit::typing {

using namespace ir;

namespace {

// The names `d` reads that it does not bind itself (parameters, locals),
// its own nested functions' free names included.
void freeNames(const ast::FunctionDef &d, std::set<std::string> &out) {
  std::set<std::string> bound;
  for (const ast::Param &p : d.params) bound.insert(p.name);
  collectLocals(d.body, bound);
  std::set<std::string> reads;
  std::function<void(const ast::Node *)> walk = [&](const ast::Node *n) {
    if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) {
      reads.insert(name->name);
      return;
    }
    if (auto *inner = ast::dyn_cast<ast::FunctionDef>(n)) {
      freeNames(*inner, reads);
      return;
    }
    if (ast::isa<ast::LambdaExpr>(n)) return;
    ast::forEachChild(n, walk);
  };
  for (const ast::Stmt *s : d.body) walk(s);
  for (const std::string &r : reads)
    if (!bound.count(r)) out.insert(r);
}

// Whether `name` (as written) is `base` or one of the webs splitVariables
// made of it (`base.1` ...).
bool sameVariable(const std::string &name, const std::string &base) {
  return name == base || (name.size() > base.size() + 1 &&
                          name.compare(0, base.size(), base) == 0 && name[base.size()] == '.');
}

// The statements of `body` (nested blocks included, nested functions not)
// that bind `base`: their count, and the one assignment when there is one.
void bindingsOf(const ast::StmtList &body, const std::string &base, size_t &count,
                const ast::AssignStmt *&single) {
  auto targets = [&](const ast::Expr *t) {
    std::set<std::string> names;
    collectTargets(t, names);
    size_t n = 0;
    for (const std::string &nm : names) n += sameVariable(nm, base);
    return n;
  };
  for (const ast::Stmt *s : body) {
    switch (s->kind()) {
    case ast::NodeKind::AssignStmt: {
      auto *a = ast::cast<ast::AssignStmt>(s);
      for (const ast::Expr *t : a->targets) {
        size_t n = targets(t);
        count += n;
        if (n && ast::isa<ast::NameExpr>(t)) single = a;
      }
      break;
    }
    case ast::NodeKind::AugAssignStmt:
      count += targets(ast::cast<ast::AugAssignStmt>(s)->target);
      break;
    case ast::NodeKind::AnnAssignStmt:
      count += targets(ast::cast<ast::AnnAssignStmt>(s)->target);
      break;
    case ast::NodeKind::ForStmt: {
      auto *f = ast::cast<ast::ForStmt>(s);
      count += targets(f->target);
      bindingsOf(f->body, base, count, single);
      bindingsOf(f->orelse, base, count, single);
      break;
    }
    case ast::NodeKind::TryStmt: {
      auto *t = ast::cast<ast::TryStmt>(s);
      bindingsOf(t->body, base, count, single);
      for (const ast::ExceptHandler &h : t->handlers) bindingsOf(h.body, base, count, single);
      bindingsOf(t->orelse, base, count, single);
      break;
    }
    case ast::NodeKind::WhileStmt:
      bindingsOf(ast::cast<ast::WhileStmt>(s)->body, base, count, single);
      bindingsOf(ast::cast<ast::WhileStmt>(s)->orelse, base, count, single);
      break;
    case ast::NodeKind::IfStmt:
      bindingsOf(ast::cast<ast::IfStmt>(s)->body, base, count, single);
      bindingsOf(ast::cast<ast::IfStmt>(s)->orelse, base, count, single);
      break;
    case ast::NodeKind::FunctionDef:
      count += sameVariable(ast::cast<ast::FunctionDef>(s)->name, base);
      break;
    default: break;
    }
  }
}

// A literal (a number, a bool, None, a string, a negated number) as the
// global value a nested function reads.
std::optional<GlobalValue> literalValue(const ast::Expr *e) {
  GlobalValue g;
  bool negate = false;
  if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Neg) {
    negate = true;
    e = u->operand;
  }
  if (auto *i = ast::dyn_cast<ast::IntLit>(e)) {
    if (i->tooLarge || i->value > uint64_t(INT64_MAX)) return std::nullopt;
    g.kind = GlobalValue::Kind::Int;
    g.i = negate ? -int64_t(i->value) : int64_t(i->value);
    return g;
  }
  if (auto *f = ast::dyn_cast<ast::FloatLit>(e)) {
    g.kind = GlobalValue::Kind::Float;
    g.f = negate ? -f->value : f->value;
    return g;
  }
  if (negate) return std::nullopt;
  if (auto *b = ast::dyn_cast<ast::BoolLit>(e)) {
    g.kind = GlobalValue::Kind::Bool;
    g.i = b->value;
    return g;
  }
  if (ast::isa<ast::NoneLit>(e)) return g;  // Kind::None
  if (auto *s = ast::dyn_cast<ast::StrLit>(e)) {
    g.kind = GlobalValue::Kind::String;
    g.name = s->value;
    return g;
  }
  return std::nullopt;
}

}  // namespace

void FunctionTyper::nestedDef(const ast::FunctionDef *d) {
  auto cached = prog_.nestedSources.find(d);
  if (cached == prog_.nestedSources.end()) {
    std::map<std::string, GlobalValue> captured;
    std::set<std::string> free;
    freeNames(*d, free);
    bool ok = true;
    for (const std::string &name : free) {
      GlobalValue g;
      if (auto f = nestedFns_.find(name); f != nestedFns_.end()) {
        g.kind = GlobalValue::Kind::JitFunction;
        g.fn = prog_.jitFunctions.at(f->second);
        captured[name] = g;
        continue;
      }
      size_t param = 0;
      while (param < def_.params.size() && def_.params[param].name != name) ++param;
      if (param < def_.params.size() && !locals_.count(name)) {
        auto fn = prog_.jitFunctions.find(args_[param]);
        if (fn != prog_.jitFunctions.end()) {
          g.kind = GlobalValue::Kind::JitFunction;
          g.fn = fn->second;
          captured[name] = g;
          continue;
        }
      }
      if (param == def_.params.size() && !locals_.count(name)) continue;  // a global
      size_t count = param < def_.params.size() ? 1 : 0;
      const ast::AssignStmt *single = nullptr;
      bindingsOf(def_.body, name, count, single);
      if (count > 1) {
        typingError(d->loc, fmt::format("Cannot capture a constant value for variable '{}' as "
                                        "there are multiple definitions present.",
                                        name));
        ok = false;
        continue;
      }
      std::optional<GlobalValue> value;
      if (count == 1 && single && single->targets.size() == 1) value = literalValue(single->value);
      if (!value) {
        typingError(d->loc, fmt::format("Cannot capture the non-constant value associated with "
                                        "variable '{}' in a function that may escape.",
                                        name));
        ok = false;
        continue;
      }
      captured[name] = *value;
    }
    std::shared_ptr<FunctionSource> fn;
    if (ok) {
      fn = std::make_shared<FunctionSource>(*src_);
      fn->name = d->name;
      fn->paramNames.clear();
      // Deterministic: the enclosing function's identity and the def's place.
      fn->identity = (src_->identity * 1000003u) ^ (uint64_t(d->loc.line) << 24) ^
                     uint64_t(d->loc.col) ^ (uint64_t(1) << 63);
      auto outer = src_->lookup;
      fn->lookup = [captured, outer](const std::string &n) -> std::optional<GlobalValue> {
        if (auto c = captured.find(n); c != captured.end()) return c->second;
        return outer ? outer(n) : std::nullopt;
      };
      auto *mutableDef = const_cast<ast::FunctionDef *>(d);  // owned by the context's arena
      splitVariables(*mutableDef);
      prog_.definitions[fn->identity] = d;
    }
    if (!fn) {  // reported in each pass (the final one keeps it); reads stay quiet
      nestedFns_[d->name] = nullptr;
      return;
    }
    cached = prog_.nestedSources.emplace(d, fn).first;
  }
  nestedFns_[d->name] = prog_.jitFunctionType(cached->second);
}

}  // namespace kjit::typing
