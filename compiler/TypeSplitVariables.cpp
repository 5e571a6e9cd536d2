// TypeSplitVariables.cpp - splitVariables: a variable's assignments split
// into webs (Numba's SSA), each a variable of its own type.
#include <functional>
#include <map>
#include <set>

#include "compiler/TyperImpl.h"

namespace kjit::typing {

// ---------------------------------------------------------------------------
// Variables split into the webs of their assignments (Numba's SSA does the
// same): the assignments whose values can reach a common read are one
// variable; assignments no read shares are others, which may have other
// types. `for t in range(n): t = arr` and `a = a.reshape(6)` in a loop then
// type. Reaching definitions are found over the structured body (loops to a
// fixed point); the webs after the first are renamed `name.1`, `name.2` ...

namespace {

class VariableWebs {
 public:
  explicit VariableWebs(ast::FunctionDef &def) {
    collectLocals(def.body, locals_);
    for (const ast::Param &p : def.params) locals_.insert(p.name);
    State entry;
    for (const ast::Param &p : def.params) entry.defs[p.name] = {newDef(p.name, nullptr)};
    walk(def.body, entry);
    rename();
  }

 private:
  struct State {
    bool live = true;
    std::map<std::string, std::set<int>> defs;
    bool operator==(const State &o) const { return live == o.live && defs == o.defs; }
  };
  struct Loop {
    State breaks{false, {}}, continues{false, {}};
  };
  static State join(const State &a, const State &b) {
    if (!a.live) return b;
    if (!b.live) return a;
    State r = a;
    for (auto &[v, ds] : b.defs) r.defs[v].insert(ds.begin(), ds.end());
    return r;
  }

  std::set<std::string> locals_;
  std::vector<std::string> defVar_;             // by def id
  std::vector<ast::NameExpr *> defNode_;        // by def id (null: a parameter)
  std::map<const ast::NameExpr *, int> defOf_;  // assignment targets
  std::map<const ast::NameExpr *, std::set<int>> reads_;
  std::vector<std::pair<int, int>> ties_;  // x += 1: the new value and the old
  std::vector<Loop *> loops_;

  int newDef(const std::string &var, ast::NameExpr *node) {
    defVar_.push_back(var);
    defNode_.push_back(node);
    return int(defVar_.size()) - 1;
  }
  void read(const ast::Node *n, const State &s) {
    if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) {
      if (!locals_.count(name->name)) return;
      auto &r = reads_[name];
      if (auto it = s.defs.find(name->name); it != s.defs.end() && s.live)
        r.insert(it->second.begin(), it->second.end());
      return;
    }
    if (ast::isa<ast::LambdaExpr>(n)) return;
    ast::forEachChild(n, [&](const ast::Node *c) { read(c, s); });
  }
  // An assignment target: names are defined, subscripts and attributes read.
  void assign(ast::Expr *t, State &s) {
    if (auto *name = ast::dyn_cast<ast::NameExpr>(t)) {
      auto [it, fresh] = defOf_.emplace(name, 0);
      if (fresh) it->second = newDef(name->name, name);
      s.defs[name->name] = {it->second};
    } else if (auto *tu = ast::dyn_cast<ast::TupleExpr>(t)) {
      for (ast::Expr *e : tu->elts) assign(e, s);
    } else if (auto *l = ast::dyn_cast<ast::ListExpr>(t)) {
      for (ast::Expr *e : l->elts) assign(e, s);
    } else {
      read(t, s);
    }
  }
  void walk(ast::StmtList &body, State &s) {
    for (ast::Stmt *st : body) stmt(st, s);
  }
  // The states an exception can leave the try bodies being walked in: any
  // statement's (inner ones too) start.
  std::vector<State *> tryExits_;
  void stmt(ast::Stmt *st, State &s) {
    for (State *exit : tryExits_) *exit = join(*exit, s);
    switch (st->kind()) {
    case ast::NodeKind::TryStmt: {
      auto *t = ast::cast<ast::TryStmt>(st);
      State raised{false, {}};
      tryExits_.push_back(&raised);
      walk(t->body, s);
      tryExits_.pop_back();
      walk(t->orelse, s);
      for (ast::ExceptHandler &h : t->handlers) {
        State in = raised;
        if (h.type) read(h.type, in);
        walk(h.body, in);
        s = join(s, in);
      }
      return;
    }
    case ast::NodeKind::AssignStmt: {
      auto *a = ast::cast<ast::AssignStmt>(st);
      read(a->value, s);
      for (ast::Expr *t : a->targets) assign(t, s);
      return;
    }
    case ast::NodeKind::AugAssignStmt: {
      auto *a = ast::cast<ast::AugAssignStmt>(st);
      read(a->value, s);
      read(a->target, s);
      if (auto *name = ast::dyn_cast<ast::NameExpr>(a->target); name && locals_.count(name->name)) {
        std::set<int> old = reads_[name];
        assign(a->target, s);
        for (int d : old) ties_.emplace_back(defOf_[name], d);
      }
      return;
    }
    case ast::NodeKind::AnnAssignStmt: {
      auto *a = ast::cast<ast::AnnAssignStmt>(st);
      if (a->value) {
        read(a->value, s);
        assign(a->target, s);
      }
      return;
    }
    case ast::NodeKind::IfStmt: {
      auto *i = ast::cast<ast::IfStmt>(st);
      read(i->test, s);
      State a = s, b = s;
      walk(i->body, a);
      walk(i->orelse, b);
      s = join(a, b);
      return;
    }
    case ast::NodeKind::WhileStmt:
    case ast::NodeKind::ForStmt: {
      auto *w = ast::dyn_cast<ast::WhileStmt>(st);
      auto *f = ast::dyn_cast<ast::ForStmt>(st);
      if (f) read(f->iter, s);
      ast::StmtList &body = w ? w->body : f->body;
      ast::StmtList &orelse = w ? w->orelse : f->orelse;
      State head = s;
      Loop loop;
      for (int round = 0; round < 32; ++round) {
        loop = Loop{};
        State in = head;
        if (w) read(w->test, in);
        if (f) assign(f->target, in);
        loops_.push_back(&loop);
        walk(body, in);
        loops_.pop_back();
        State next = join(s, join(in, loop.continues));
        if (next == head) break;
        head = next;
      }
      State done = head;
      walk(orelse, done);
      s = join(done, loop.breaks);
      return;
    }
    case ast::NodeKind::BreakStmt:
    case ast::NodeKind::ContinueStmt:
      if (!loops_.empty()) {
        State &to = st->kind() == ast::NodeKind::BreakStmt ? loops_.back()->breaks
                                                           : loops_.back()->continues;
        to = join(to, s);
      }
      s.live = false;
      return;
    case ast::NodeKind::ReturnStmt:
    case ast::NodeKind::RaiseStmt:
      read(st, s);
      s.live = false;
      return;
    case ast::NodeKind::FunctionDef:
    case ast::NodeKind::ImportStmt: return;
    default: read(st, s); return;
    }
  }

  void rename() {
    std::vector<int> parent(defVar_.size());
    for (size_t i = 0; i < parent.size(); ++i) parent[i] = int(i);
    std::function<int(int)> find = [&](int x) {
      return parent[x] == x ? x : parent[x] = find(parent[x]);
    };
    auto unite = [&](int a, int b) { parent[find(a)] = find(b); };
    for (auto &[node, ds] : reads_)
      for (int d : ds) unite(d, *ds.begin());
    for (auto [a, b] : ties_) unite(a, b);
    // The web of a variable's first assignment (or parameter) keeps its name.
    std::map<std::string, std::map<int, std::string>> names;  // var -> root -> name
    for (size_t d = 0; d < defVar_.size(); ++d) {
      auto &webs = names[defVar_[d]];
      int root = find(int(d));
      if (!webs.count(root))
        webs[root] = webs.empty() ? defVar_[d] : fmt::format("{}.{}", defVar_[d], webs.size());
    }
    for (size_t d = 0; d < defVar_.size(); ++d)
      if (defNode_[d]) defNode_[d]->name = names[defVar_[d]][find(int(d))];
    for (auto &[node, ds] : reads_)
      if (!ds.empty())
        const_cast<ast::NameExpr *>(node)->name = names[defVar_[*ds.begin()]][find(*ds.begin())];
  }
};

}  // namespace

void splitVariables(ast::FunctionDef &def) { VariableWebs webs(def); }

}  // namespace kjit::typing
