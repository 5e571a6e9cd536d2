// TypeLoops.cpp - typing for loops: range and prange, arrays, tuples,
// lists, strings, sets and dicts, enumerate and zip, literal_unroll, and
// the checks of a prange body.
#include "compiler/TyperImpl.h"

namespace kjit::typing {

// A prange body runs in chunks on several threads: 'break' and 'return'
// cannot keep their meaning there.
bool FunctionTyper::checkParallelBody(const ast::StmtList &body, unsigned nestedLoops) {
  bool ok = true;
  for (const ast::Stmt *s : body) {
    if (ast::isa<ast::ReturnStmt>(s)) {
      unsupported(s->loc, "'return' is not supported inside a prange loop");
      ok = false;
    } else if (ast::isa<ast::BreakStmt>(s) && nestedLoops == 0) {
      unsupported(s->loc, "'break' is not supported inside a prange loop");
      ok = false;
    } else if (auto *i = ast::dyn_cast<ast::IfStmt>(s)) {
      ok &= checkParallelBody(i->body, nestedLoops) & checkParallelBody(i->orelse, nestedLoops);
    } else if (auto *w = ast::dyn_cast<ast::WhileStmt>(s)) {
      ok &= checkParallelBody(w->body, nestedLoops + 1) & checkParallelBody(w->orelse, nestedLoops);
    } else if (auto *fo = ast::dyn_cast<ast::ForStmt>(s)) {
      ok &=
          checkParallelBody(fo->body, nestedLoops + 1) & checkParallelBody(fo->orelse, nestedLoops);
    }
  }
  return ok;
}

// Arrays and tuples of one element type: what a for loop, enumerate and zip
// walk by index.
bool FunctionTyper::walkable(const Type *t) {
  return (t->isArray() && t->ndim() > 0) || t->isHomogeneousTuple() || (t->isList() && t->dtype());
}

// Numba's error for a walk over a 0-d array (it has no first axis); true
// when `t` is one.
bool FunctionTyper::zeroDimWalk(const Type *t, SourceLoc loc) {
  if (!t->isArray() || t->ndim() != 0) return false;
  typingError(loc, fmt::format("iteration over a 0-d array ({}) is not possible: it has no "
                               "first axis; read its one element with a[()]",
                               t->str()));
  return true;
}

VarRef *FunctionTyper::varRef(Var *v, SourceLoc loc) { return ir_.varRef(v, loc); }

// A loop that counts `iv` from 0 to `stop` by 1.
ForRange *FunctionTyper::indexLoop(Var *iv, Expr *stop, SourceLoc loc) {
  Expr *start = constInt(0, loc);
  return ir_.forRange(iv, start, stop, constInt(1, loc), loc);
}

// The loop's body and else block, then the loop itself into `out`.
void FunctionTyper::loopBody(const ast::ForStmt *f, ForRange *loop, Block &out) {
  ++loopDepth_;
  block(f->body, loop->body);
  --loopDepth_;
  block(f->orelse, loop->orelse);
  out.push_back(loop);
}

// Element `index` of a sequence a loop can walk: an array (along its first
// axis: an element, or a view), a list, or a tuple of one element type. The
// typer only types it (SequenceItem); passes/ExpandSequences.cpp expands it.
Expr *FunctionTyper::sequenceElement(Var *seq, Expr *index, SourceLoc loc) {
  const Type *t = seq->type, *elem;
  if (t->isTuple())
    elem = t->elements().front();
  else if (t->isList() || t->ndim() == 1)
    elem = t->dtype();
  else
    elem = tc_.array(t->dtype(), t->ndim() - 1, t->layout() == Layout::C ? Layout::C : Layout::A,
                     t->readonly());
  return ir_.intrinsic(IntrinsicId::SequenceItem, {varRef(seq, loc), index}, elem, loc);
}

// The length of such a sequence (a tuple's is its type's).
Expr *FunctionTyper::sequenceLength(Var *seq, SourceLoc loc) {
  if (seq->type->isTuple()) return constInt(int64_t(seq->type->elements().size()), loc);
  return ir_.intrinsic(IntrinsicId::SequenceLength, {varRef(seq, loc)}, tc_.int64(), loc);
}

// for i, x in enumerate(seq[, start]) and for x, y in zip(a, b, ...): an
// index loop over arrays or tuples of one element type (zip: as long as the
// shortest).
// enumerate()'s start: an integer, evaluated once into a temporary; null
// when it does not type (reported).
Var *FunctionTyper::enumerateStart(const ast::Expr *e, Block &out) {
  Expr *s = expr(e);
  if (!known(s)) return nullptr;
  if (!s->type->isInt() && !s->type->isBool()) {
    typingError(s->loc,
                fmt::format("enumerate() start must be an integer, not {}", s->type->str()));
    return nullptr;
  }
  return temp(castTo(s, tc_.int64()), out);
}

void FunctionTyper::enumerateOrZip(const ast::ForStmt *f, const ast::CallExpr *call,
                                   bool isEnumerate, Block &out) {
  const char *name = isEnumerate ? "enumerate" : "zip";
  const ast::Expr *startAst = nullptr;
  for (const auto &k : call->keywords) {
    if (isEnumerate && k.name == "start") {
      startAst = k.value;
      continue;
    }
    unsupported(call->loc,
                fmt::format("{}() takes no keyword argument '{}' in kernels", name, k.name));
    return;
  }
  size_t nargs = call->args.size();
  if (isEnumerate ? (nargs < 1 || nargs > 2 || (nargs == 2 && startAst)) : nargs < 1) {
    typingError(call->loc, isEnumerate ? "enumerate() takes a sequence and an optional start"
                                       : "zip() takes one or more sequences");
    return;
  }
  if (isEnumerate && nargs == 2) startAst = call->args[1];
  Var *startVar = startAst ? enumerateStart(startAst, out) : nullptr;  // evaluated once
  if (startAst && !startVar) return;
  // The sequences walked: enumerate's one, or zip's; enumerate(zip(a, b))
  // walks a and b, its element the pair.
  std::vector<const ast::Expr *> seqAsts(call->args.begin(),
                                         call->args.begin() + (isEnumerate ? 1 : nargs));
  bool zipped = !isEnumerate;
  if (isEnumerate) {
    if (auto *inner = ast::dyn_cast<ast::CallExpr>(call->args[0])) {
      Expr *g = expr(inner->func);
      if (!known(g)) return;
      if (g->type->kind() == TypeKind::Function && g->type->symbol() == "builtins.zip") {
        if (inner->args.empty() || !inner->keywords.empty()) {
          typingError(inner->loc, "zip() takes one or more sequences");
          return;
        }
        seqAsts.assign(inner->args.begin(), inner->args.end());
        zipped = true;
      }
    }
  }
  // zip(enumerate(a), b): that sequence's element is (index + start, a[i]);
  // a start is evaluated after its sequence, in the order Python does.
  std::vector<const ast::Expr *> startAsts(seqAsts.size(), nullptr);
  std::vector<Var *> enumStarts(seqAsts.size(), nullptr);
  std::vector<bool> enumerated(seqAsts.size(), false);
  if (zipped && !isEnumerate) {
    for (size_t k = 0; k < seqAsts.size(); ++k) {
      auto *inner = ast::dyn_cast<ast::CallExpr>(seqAsts[k]);
      if (!inner) continue;
      Expr *g = expr(inner->func);
      if (!known(g)) return;
      if (g->type->kind() != TypeKind::Function || g->type->symbol() != "builtins.enumerate")
        continue;
      const ast::Expr *startAst = inner->args.size() == 2 ? inner->args[1] : nullptr;
      for (const auto &kw : inner->keywords) {
        if (kw.name != "start" || startAst) {
          typingError(inner->loc, "enumerate() takes a sequence and an optional start");
          return;
        }
        startAst = kw.value;
      }
      if (inner->args.empty() || inner->args.size() > 2) {
        typingError(inner->loc, "enumerate() takes a sequence and an optional start");
        return;
      }
      startAsts[k] = startAst;
      enumerated[k] = true;
      seqAsts[k] = inner->args[0];
    }
  }
  std::vector<Var *> seqs;
  for (size_t k = 0; k < seqAsts.size(); ++k) {
    if (auto *rc = ast::dyn_cast<ast::CallExpr>(seqAsts[k])) {
      Expr *g = expr(rc->func);
      if (!known(g)) return;
      if (g->type->kind() == TypeKind::Function && g->type->symbol() == "builtins.range") {
        unsupported(rc->loc,
                    fmt::format("{}() of a range() is not supported yet; loop over the range and "
                                "index the other sequences",
                                zipped ? "zip" : name));
        return;
      }
    }
    Expr *s = expr(seqAsts[k]);
    if (!known(s)) return;
    if (zeroDimWalk(s->type, s->loc)) return;
    if (!walkable(s->type)) {
      unsupported(
          s->loc,
          fmt::format("{}() in kernels walks NumPy arrays and tuples of one element type, not {}",
                      name, s->type->str()));
      return;
    }
    seqs.push_back(temp(s, out));
    if (startAsts[k] && !(enumStarts[k] = enumerateStart(startAsts[k], out))) return;
  }
  Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
  Expr *n = sequenceLength(seqs[0], f->iter->loc);
  for (size_t k = 1; k < seqs.size(); ++k) {
    n = ir_.intrinsic(IntrinsicId::Min, {n, sequenceLength(seqs[k], f->iter->loc)}, tc_.int64(),
                      f->iter->loc);
  }
  ForRange *loop = indexLoop(iv, n, f->loc);
  auto index = [&] { return varRef(iv, f->loc); };
  std::vector<Expr *> elems;
  if (isEnumerate) {
    Expr *i = index();
    if (startVar) i = ir_.binary(BinOp::Add, i, varRef(startVar, f->iter->loc), f->iter->loc);
    elems.push_back(i);
  }
  std::vector<Expr *> innerElems;
  bool nested = isEnumerate && zipped;
  for (size_t k = 0; k < seqs.size(); ++k) {
    Expr *e = sequenceElement(seqs[k], index(), f->target->loc);
    if (enumerated[k]) {
      Expr *i = index();
      if (enumStarts[k])
        i = ir_.binary(BinOp::Add, i, varRef(enumStarts[k], f->iter->loc), f->iter->loc);
      e = ir_.tupleMake({i, e}, f->target->loc);
    }
    (nested ? innerElems : elems).push_back(e);
  }
  if (nested) elems.push_back(ir_.tupleMake(std::move(innerElems), f->target->loc));
  assignTarget(f->target, ir_.tupleMake(std::move(elems), f->target->loc), loop->body);
  loopBody(f, loop, out);
}

void FunctionTyper::forLoop(const ast::ForStmt *f, Block &out) {
  const ast::CallExpr *call = ast::dyn_cast<ast::CallExpr>(f->iter);
  if (call && !call->starred.empty()) {
    unsupported(call->loc,
                "'*' argument unpacking in the iterable of a for loop is not "
                "supported in kernels; pass the arguments");
    return;
  }
  Expr *callee = call ? expr(call->func) : nullptr;
  if (call && !known(callee)) return;  // already reported
  std::string fname = callee && known(callee) && callee->type->kind() == TypeKind::Function
                          ? callee->type->symbol()
                          : "";
  if (fname == "builtins.range" || fname == "kjit.prange" || fname == "numba.prange") {
    if (!call->keywords.empty() || call->args.empty() || call->args.size() > 3) {
      typingError(call->loc, "range() takes 1 to 3 integer arguments");
      return;
    }
    std::vector<Expr *> a;
    for (const ast::Expr *ae : call->args) {
      Expr *v = expr(ae);
      if (!known(v)) return;
      if (!v->type->isInt() && !v->type->isBool()) {
        typingError(ae->loc,
                    fmt::format("range() arguments must be integers, not {}", v->type->str()));
        return;
      }
      a.push_back(castTo(v, tc_.int64()));
    }
    Expr *start = a.size() == 1 ? constInt(0, f->loc) : a[0];
    Expr *stop = a.size() == 1 ? a[0] : a[1];
    Expr *step = a.size() == 3 ? a[2] : constInt(1, f->loc);
    if (auto *c = dyn_cast<Const>(step); c && c->i == 0) {
      typingError(call->args[2]->loc, "range() arg 3 must not be zero");
      return;
    }
    bool parallel = fname != "builtins.range" && src_->parallel;
    if (parallel && !checkParallelBody(f->body, 0)) return;
    auto *target = ast::dyn_cast<ast::NameExpr>(f->target);
    if (!target) {
      unsupported(f->target->loc, "the target of a loop over range() must be a single name");
      return;
    }
    // The loop variable is an int64 local like any other.
    Expr *sample = constInt(0, f->loc);
    assignVar(target->name, sample, f->target->loc, out);
    if (!out.empty() && isa<Assign>(out.back()) && cast<Assign>(out.back())->var &&
        cast<Assign>(out.back())->var->name == target->name)
      out.pop_back();  // the sample assignment only typed the variable
    VarInfo &info = vars_[target->name];
    if (!info.var) {
      if (!info.type) return;
      info.var = newVar(target->name, info.type, f->target->loc);
    }
    Var *loopVar = info.var;
    Block body;
    if (info.type != tc_.int64()) {
      // The variable is also assigned floats elsewhere: iterate on a temp.
      Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->target->loc);
      loopVar = iv;
      assignVar(target->name, varRef(iv, f->target->loc), f->target->loc, body);
    }
    ForRange *loop = ir_.forRange(loopVar, start, stop, step, f->loc);
    loop->parallel = parallel;
    loop->body = std::move(body);
    loopBody(f, loop, out);
    return;
  }
  if (fname == "kjit.literal_unroll" || fname == "numba.literal_unroll" ||
      fname == "kjit.cuda.literal_unroll") {
    literalUnroll(f, call, out);
    return;
  }
  if (fname == "builtins.enumerate" || fname == "builtins.zip") {
    enumerateOrZip(f, call, fname == "builtins.enumerate", out);
    return;
  }
  // for x in an array (along its first axis) or a tuple of one element type.
  Expr *it = callee && fname.empty() ? nullptr : expr(f->iter);
  if (!call) it = expr(f->iter);
  if (it && known(it)) it = runtimeString(it);
  if (it && known(it) && it->type->isString())
    it = listLib("_str_chars", {it}, f->iter->loc);  // for c in s
  if (it && known(it) && it->type->isDict() && !hasUndefinedList(it->type))
    it = listLib(it->type->isSet() ? "_set_items" : "_dict_keys", {it},
                 f->iter->loc);  // for key in d, for x in s
  if (it && known(it) && walkable(it->type)) {
    Var *seq = temp(it, out);
    Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
    ForRange *loop = indexLoop(iv, sequenceLength(seq, f->iter->loc), f->loc);
    assignTarget(f->target, sequenceElement(seq, varRef(iv, f->loc), f->target->loc), loop->body);
    loopBody(f, loop, out);
    return;
  }
  if (it && !known(it)) return;
  if (it && zeroDimWalk(it->type, f->iter->loc)) return;
  unsupported(f->iter->loc,
              fmt::format("for loops over {} are not supported yet; loop over "
                          "range(), prange(), a NumPy array or a tuple of one element type",
                          it && it->type ? it->type->str() : std::string("this value")));
}

// for x in literal_unroll(tup): the body once per element of the tuple,
// typed for that element (as Numba does), with x a variable of its own in
// each copy. The copies sit in a loop of len(tup) iterations, copy k under
// `if $i == k`, so that break, continue and the else block keep their
// meaning.
void FunctionTyper::literalUnroll(const ast::ForStmt *f, const ast::CallExpr *call, Block &out) {
  if (call->args.size() != 1 || !call->keywords.empty()) {
    typingError(call->loc, "literal_unroll() takes one tuple");
    return;
  }
  Expr *t = expr(call->args[0]);
  if (!known(t)) return;
  if (!t->type->isTuple()) {
    unsupported(call->args[0]->loc,
                fmt::format("literal_unroll() unrolls a tuple, not {}", t->type->str()));
    return;
  }
  Var *seq = temp(t, out);
  size_t n = t->type->elements().size();
  Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
  ForRange *loop = indexLoop(iv, constInt(int64_t(n), f->iter->loc), f->loc);
  std::set<std::string> names;
  collectTargets(f->target, names);
  std::map<std::string, std::string> saved = renames_;
  ++loopDepth_;
  for (size_t k = 0; k < n; ++k) {
    for (const std::string &nm : names)
      renames_[nm] = fmt::format("{}$u{}.{}.{}", nm, f->target->loc.line, f->target->loc.col, k);
    Block then;
    assignTarget(f->target, ir_.tupleGet(varRef(seq, f->iter->loc), unsigned(k), f->target->loc),
                 then);
    block(f->body, then);
    Expr *cond = ir_.binary(BinOp::Eq, varRef(iv, f->loc), constInt(int64_t(k), f->loc), f->loc);
    loop->body.push_back(ir_.ifStmt(cond, std::move(then), {}, f->loc));
  }
  --loopDepth_;
  renames_ = std::move(saved);
  block(f->orelse, loop->orelse);
  out.push_back(loop);
}

}  // namespace kjit::typing
