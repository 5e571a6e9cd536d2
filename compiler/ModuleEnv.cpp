#include "compiler/ModuleEnv.h"

#include <functional>
#include <map>

#include "compiler/Builtins.h"
#include "compiler/Context.h"

namespace kjit {

namespace {

struct ModuleInfo {
  std::map<std::string, GlobalValue> names;
};

std::string canonicalModule(const std::string &m) {
  if (m == "numba") return "kjit";
  if (m == "numba.cuda") return "kjit.cuda";
  return m;
}

// The names `m` binds at its top level besides its functions: constants
// and imports.
void moduleGlobals(Session &session, const ast::Module &m, ModuleInfo &info) {
  // Constants: NAME = literal (or a tuple of literals).
  std::function<std::optional<GlobalValue>(const ast::Expr *)> literal =
      [&](const ast::Expr *e) -> std::optional<GlobalValue> {
    GlobalValue g;
    if (auto *i = ast::dyn_cast<ast::IntLit>(e); i && !i->tooLarge) {
      g.kind = GlobalValue::Kind::Int;
      g.i = int64_t(i->value);
      return g;
    }
    if (auto *f = ast::dyn_cast<ast::FloatLit>(e)) {
      g.kind = GlobalValue::Kind::Float;
      g.f = f->value;
      return g;
    }
    if (auto *b = ast::dyn_cast<ast::BoolLit>(e)) {
      g.kind = GlobalValue::Kind::Bool;
      g.i = b->value;
      return g;
    }
    if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Neg) {
      auto v = literal(u->operand);
      if (!v) return std::nullopt;
      v->i = -v->i;
      v->f = -v->f;
      return v;
    }
    if (auto *t = ast::dyn_cast<ast::TupleExpr>(e)) {
      g.kind = GlobalValue::Kind::Tuple;
      for (const ast::Expr *x : t->elts) {
        auto v = literal(x);
        if (!v) return std::nullopt;
        g.elems.push_back(*v);
      }
      return g;
    }
    return std::nullopt;
  };
  for (const ast::Stmt *s : m.body) {
    auto *a = ast::dyn_cast<ast::AssignStmt>(s);
    if (!a || a->targets.size() != 1) continue;
    if (auto *n = ast::dyn_cast<ast::NameExpr>(a->targets[0]))
      if (auto v = literal(a->value)) info.names[n->name] = *v;
  }
  for (const ast::Stmt *s : m.body) {
    auto *imp = ast::dyn_cast<ast::ImportStmt>(s);
    if (!imp) continue;
    for (const ast::ImportAlias &a : imp->names) {
      if (!imp->isFrom) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Module;
        std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
        g.name = canonicalModule(a.asname.empty() ? bound : a.name);
        info.names[bound] = g;
        continue;
      }
      std::string mod = canonicalModule(imp->fromModule);
      std::string bound = a.asname.empty() ? a.name : a.asname;
      if ((mod == "kjit" && (a.name == "cuda")) || (mod == "numba" && a.name == "cuda")) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Module;
        g.name = "kjit.cuda";
        info.names[bound] = g;
      } else if (auto g = moduleAttribute(session, mod, a.name)) {
        info.names[bound] = *g;
      } else if (mod == "kjit" && (a.name == "jit" || a.name == "njit" || a.name == "vectorize" ||
                                   a.name == "guvectorize")) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Function;
        g.name = "kjit." + a.name;
        info.names[bound] = g;
      }
    }
  }
}

}  // namespace

std::shared_ptr<FunctionSource> functionFromModule(Session &session, const std::string &filename,
                                                   const std::string &text,
                                                   const std::string &function) {
  return functionFromModule(session, std::vector<ModuleFile>{{filename, text}}, function);
}

std::shared_ptr<FunctionSource> functionFromModule(Session &session,
                                                   const std::vector<ModuleFile> &files,
                                                   const std::string &function) {
  Context ctx;  // only to parse: its own Session is not used
  ParseOptions opts;
  opts.declarationsOnly = true;
  auto info = std::make_shared<ModuleInfo>();
  auto sources = std::make_shared<std::map<std::string, std::shared_ptr<FunctionSource>>>();
  uint64_t identity = 1;
  for (const ModuleFile &file : files) {
    ast::Module m = ctx.parse(file.filename, file.text, 1, opts);
    for (const std::string &name : m.functionNames) {
      auto fs = std::make_shared<FunctionSource>();
      fs->name = name;
      fs->filename = file.filename;
      fs->text = file.text;
      fs->firstLine = 1;
      fs->identity = identity++;
      (*sources)[name] = fs;
    }
    moduleGlobals(session, m, *info);
  }
  std::weak_ptr<std::map<std::string, std::shared_ptr<FunctionSource>>> weakSources = sources;
  auto lookup = [info, weakSources](const std::string &name) -> std::optional<GlobalValue> {
    auto sources = weakSources.lock();
    if (!sources) return std::nullopt;
    if (auto it = info->names.find(name); it != info->names.end()) return it->second;
    if (auto it = sources->find(name); it != sources->end()) {
      GlobalValue g;
      g.kind = GlobalValue::Kind::JitFunction;
      g.fn = it->second;
      return g;
    }
    return std::nullopt;
  };
  for (auto &[n, fs] : *sources) fs->lookup = lookup;
  auto it = sources->find(function);
  if (it == sources->end()) return nullptr;
  // The result keeps the whole map alive (aliasing constructor), so that
  // the functions it calls stay reachable through `lookup`.
  return std::shared_ptr<FunctionSource>(sources, it->second.get());
}

}  // namespace kjit
