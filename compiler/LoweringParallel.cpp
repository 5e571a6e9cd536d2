// LoweringParallel.cpp - prange loops.
//
// A parallel ForRange becomes an outlined function
//     i32 body(ptr env, i64 chunk, i64 lo, i64 hi, ptr ctx)
// that runs iterations [lo, hi) of the loop, called by kjit_rt_parallel_for
// on the thread pool, one contiguous chunk per thread.
//   - env holds a pointer to the caller's slot of every variable the body
//     uses, and the partials buffer;
//   - the body reads variables from the caller (copied in at its start) and
//     assigns its own copies (private, as in Numba: their values do not
//     flow back);
//   - a reduction variable (`s += x`, `s *= x`, `s = min(s, x)`, ...) starts
//     each chunk at the operation's identity, each chunk stores its partial,
//     and the caller combines the partials in chunk order after the loop.
#include <llvm/IR/Intrinsics.h>

#include <set>

#include "compiler/LoweringImpl.h"

namespace kjit::lowering {

using namespace ir;

namespace {

enum class RedOp { Add, Mul, Min, Max, And, Or, Xor };

struct Reduction {
  Var *var;
  RedOp op;
};

const Expr *stripCast(const Expr *e) {
  while (auto *c = dyn_cast<Cast>(e)) e = c->value;
  return e;
}

bool refersTo(const Expr *e, const Var *v) {
  auto *r = dyn_cast<VarRef>(stripCast(e));
  return r && r->var == v;
}

// `v = v op x` (or `v = x op v` for commutative ops): the reduction op.
bool reductionOf(const Assign *a, RedOp &op) {
  const Expr *value = stripCast(a->value);
  if (auto *b = dyn_cast<Binary>(value)) {
    bool left = refersTo(b->lhs, a->var), right = refersTo(b->rhs, a->var);
    switch (b->op) {
    case BinOp::Add: op = RedOp::Add; return left || right;
    case BinOp::Sub: op = RedOp::Add; return left && !right;  // s -= x: partials of -x add up
    case BinOp::Mul: op = RedOp::Mul; return left || right;
    case BinOp::BitAnd: op = RedOp::And; return left || right;
    case BinOp::BitOr: op = RedOp::Or; return left || right;
    case BinOp::BitXor: op = RedOp::Xor; return left || right;
    default: return false;
    }
  }
  if (auto *in = dyn_cast<Intrinsic>(value)) {
    if (in->id != IntrinsicId::Min && in->id != IntrinsicId::Max) return false;
    op = in->id == IntrinsicId::Min ? RedOp::Min : RedOp::Max;
    return refersTo(in->args[0], a->var) || refersTo(in->args[1], a->var);
  }
  return false;
}

void walkStmts(const Block &b, const std::function<void(const Stmt *)> &fn) {
  for (const Stmt *s : b) {
    fn(s);
    if (auto *i = dyn_cast<If>(s)) {
      walkStmts(i->then, fn);
      walkStmts(i->otherwise, fn);
    } else if (auto *w = dyn_cast<While>(s)) {
      walkStmts(w->body, fn);
      walkStmts(w->orelse, fn);
    } else if (auto *t = dyn_cast<Try>(s)) {
      walkStmts(t->body, fn);
      walkStmts(t->handler, fn);
      walkStmts(t->orelse, fn);
    } else if (auto *f = dyn_cast<ForRange>(s)) {
      walkStmts(f->body, fn);
      walkStmts(f->orelse, fn);
    }
  }
}

}  // namespace

void FunctionLowering::parallelFor(const ForRange *f) {
  // ---- which variables reduce ----
  std::map<Var *, RedOp> candidates;
  std::set<Var *> plain;  // assigned other than as a reduction
  walkStmts(f->body, [&](const Stmt *s) {
    if (auto *a = dyn_cast<Assign>(s)) {
      RedOp op;
      if (reductionOf(a, op)) {
        auto it = candidates.find(a->var);
        if (it != candidates.end() && it->second != op) plain.insert(a->var);
        candidates.emplace(a->var, op);
      } else {
        plain.insert(a->var);
      }
    }
  });
  std::vector<Reduction> reductions;
  for (auto &[v, op] : candidates)
    if (!plain.count(v) && v != f->var && slots[v->id]) reductions.push_back({v, op});

  // ---- the caller's side: trip count, env, partials ----
  llvm::Value *start = expr(f->start), *stop = expr(f->stop), *step = expr(f->step);
  // trip = max(0, ceil((stop - start) / step)) for either sign of step.
  llvm::Value *span = B.CreateSub(stop, start);
  llvm::Value *adj = B.CreateSelect(B.CreateICmpSGT(step, i64(0)), i64(-1), i64(1));
  llvm::Value *trip = B.CreateSDiv(B.CreateAdd(span, B.CreateAdd(step, adj)), step);
  trip = B.CreateSelect(B.CreateICmpSLT(trip, i64(0)), i64(0), trip);
  llvm::Value *chunks = B.CreateCall(P.runtime("kjit_rt_num_chunks"), {ctxPtr});

  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  unsigned nslots = unsigned(slots.size());
  // env: [nslots x ptr] caller slots, then start, step, then one partials
  // buffer pointer per reduction.
  llvm::Type *envTy = llvm::ArrayType::get(ptr, nslots + 2 + reductions.size());
  llvm::AllocaInst *env = entryAlloca(envTy, "prange.env");
  llvm::AllocaInst *startSlot = entryAlloca(B.getInt64Ty(), "prange.start");
  llvm::AllocaInst *stepSlot = entryAlloca(B.getInt64Ty(), "prange.step");
  B.CreateStore(start, startSlot);
  B.CreateStore(step, stepSlot);
  for (unsigned i = 0; i < nslots; ++i)
    B.CreateStore(slots[i] ? static_cast<llvm::Value *>(slots[i])
                           : llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)),
                  B.CreateConstGEP2_32(envTy, env, 0, i));
  B.CreateStore(startSlot, B.CreateConstGEP2_32(envTy, env, 0, nslots));
  B.CreateStore(stepSlot, B.CreateConstGEP2_32(envTy, env, 0, nslots + 1));
  llvm::Value *saved = B.CreateStackSave();
  std::vector<llvm::Value *> partials;
  for (size_t r = 0; r < reductions.size(); ++r) {
    llvm::Type *t = P.lt(reductions[r].var->type);
    llvm::Value *buf = B.CreateAlloca(t, chunks, "partials");
    partials.push_back(buf);
    B.CreateStore(buf, B.CreateConstGEP2_32(envTy, env, 0, unsigned(nslots + 2 + r)));
  }

  // ---- the outlined body ----
  auto *bodyTy = llvm::FunctionType::get(
      B.getInt32Ty(), {ptr, B.getInt64Ty(), B.getInt64Ty(), B.getInt64Ty(), ptr}, false);
  auto *bodyFn = llvm::Function::Create(bodyTy, llvm::GlobalValue::InternalLinkage,
                                        LF->getName() + ".prange", P.M);
  {
    FunctionLowering sub(P, F, bodyFn, bodyFn->getArg(4));
    sub.B.SetInsertPoint(llvm::BasicBlock::Create(C, "entry", bodyFn));
    if (P.di) {
      sub.scope = P.subprogram(F.name + ".prange", f->loc);
      bodyFn->setSubprogram(sub.scope);
      sub.B.SetCurrentDebugLocation(llvm::DILocation::get(C, f->loc.line, f->loc.col, sub.scope));
    }
    sub.B.setFastMathFlags(B.getFastMathFlags());
    sub.allocateSlots();
    llvm::Value *envArg = bodyFn->getArg(0), *chunk = bodyFn->getArg(1);
    llvm::Value *lo = bodyFn->getArg(2), *hi = bodyFn->getArg(3);
    auto envAt = [&](unsigned i) {
      return sub.B.CreateLoad(ptr, sub.B.CreateConstGEP2_32(envTy, envArg, 0, i));
    };
    // Copy in every variable the caller has a slot for.
    for (unsigned i = 0; i < nslots; ++i) {
      if (!slots[i] || !sub.slots[i]) continue;
      llvm::Type *t = sub.slots[i]->getAllocatedType();
      sub.B.CreateStore(sub.B.CreateLoad(t, envAt(i)), sub.slots[i]);
    }
    // A constant start or step is used as the constant: with `0 <= lo` (the
    // runtime's chunks lie in [0, trip)) LLVM then sees a non-negative, unit
    // stride index, drops negative-index wraparound and vectorises the body.
    llvm::Value *st, *sp;
    auto *startConst = dyn_cast<Const>(stripCast(f->start));
    if (startConst && startConst->type && startConst->type->isInt())
      st = sub.i64(startConst->i);
    else
      st = sub.B.CreateLoad(B.getInt64Ty(), envAt(nslots));
    sp = f->constStep ? sub.i64(f->constStep) : sub.B.CreateLoad(B.getInt64Ty(), envAt(nslots + 1));
    sub.B.CreateAssumption(sub.B.CreateICmpSGE(lo, sub.i64(0)));
    sub.B.CreateAssumption(sub.B.CreateICmpSGE(hi, lo));
    bool nonNegative = startConst && startConst->i >= 0 && f->constStep > 0;
    // Reductions start at the identity.
    for (const Reduction &r : reductions) {
      const Type *t = r.var->type;
      llvm::Type *lt = P.lt(t);
      llvm::Value *id;
      switch (r.op) {
      case RedOp::Add:
      case RedOp::Or:
      case RedOp::Xor:
        id = t->isFloat() ? llvm::ConstantFP::get(lt, 0.0) : llvm::Constant::getNullValue(lt);
        break;
      case RedOp::Mul:
        id = t->isFloat() ? llvm::ConstantFP::get(lt, 1.0) : llvm::ConstantInt::get(lt, 1);
        break;
      case RedOp::And: id = llvm::Constant::getAllOnesValue(lt); break;
      default:  // min/max: the caller's current value is a valid start
        id = sub.B.CreateLoad(lt, envAt(r.var->id));
      }
      sub.B.CreateStore(id, sub.slots[r.var->id]);
    }
    // for idx in [lo, hi): var = start + idx * step; body
    llvm::AllocaInst *idx = sub.entryAlloca(B.getInt64Ty(), "prange.idx");
    sub.B.CreateStore(lo, idx);
    llvm::BasicBlock *head = sub.block("prange.cond"), *body = sub.block("prange.body"),
                     *latch = sub.block("prange.inc"), *exit = sub.block("prange.end");
    sub.B.CreateBr(head);
    sub.B.SetInsertPoint(head);
    llvm::Value *i = sub.B.CreateLoad(B.getInt64Ty(), idx);
    sub.B.CreateCondBr(sub.B.CreateICmpSLT(i, hi), body, exit);
    sub.B.SetInsertPoint(body);
    if (sub.slots[f->var->id])
      sub.B.CreateStore(sub.B.CreateAdd(st, sub.B.CreateMul(i, sp, "", false, nonNegative), "",
                                        false, nonNegative),
                        sub.slots[f->var->id]);
    sub.loops.push_back({latch, exit});
    sub.block(f->body);
    sub.loops.pop_back();
    if (!sub.terminated()) sub.B.CreateBr(latch);
    sub.B.SetInsertPoint(latch);
    sub.B.CreateStore(
        sub.B.CreateAdd(sub.B.CreateLoad(B.getInt64Ty(), idx), sub.i64(1), "", true, true), idx);
    sub.B.CreateBr(head);
    sub.B.SetInsertPoint(exit);
    for (size_t r = 0; r < reductions.size(); ++r) {
      llvm::Type *lt = P.lt(reductions[r].var->type);
      llvm::Value *buf = envAt(unsigned(nslots + 2 + r));
      sub.B.CreateStore(sub.B.CreateLoad(lt, sub.slots[reductions[r].var->id]),
                        sub.B.CreateGEP(lt, buf, chunk));
    }
    sub.B.CreateRet(sub.B.getInt32(0));
    for (llvm::BasicBlock &bb : *bodyFn)
      if (!bb.getTerminator()) {
        sub.B.SetInsertPoint(&bb);
        sub.B.CreateUnreachable();
      }
  }

  // ---- run it, then combine the partials in chunk order ----
  llvm::Value *status =
      B.CreateCall(P.runtime("kjit_rt_parallel_for"), {ctxPtr, bodyFn, env, trip, chunks});
  llvm::Value *ran = B.CreateSelect(B.CreateICmpSGT(trip, i64(0)), chunks, i64(0));
  for (size_t r = 0; r < reductions.size(); ++r) {
    const Reduction &red = reductions[r];
    const Type *t = red.var->type;
    llvm::Type *lt = P.lt(t);
    llvm::AllocaInst *slot = slots[red.var->id];
    llvm::BasicBlock *pre = B.GetInsertBlock(), *head = block("combine.cond"),
                     *body = block("combine.body"), *exit = block("combine.end");
    B.CreateBr(head);
    B.SetInsertPoint(head);
    llvm::PHINode *k = B.CreatePHI(B.getInt64Ty(), 2);
    k->addIncoming(i64(0), pre);
    B.CreateCondBr(B.CreateICmpSLT(k, ran), body, exit);
    B.SetInsertPoint(body);
    llvm::Value *acc = B.CreateLoad(lt, slot);
    llvm::Value *x = B.CreateLoad(lt, B.CreateGEP(lt, partials[r], k));
    llvm::Value *out;
    bool fl = t->isFloat();
    bool sgn = t->isInt() && t->isSigned();
    switch (red.op) {
    case RedOp::Add: out = fl ? B.CreateFAdd(acc, x) : B.CreateAdd(acc, x); break;
    case RedOp::Mul: out = fl ? B.CreateFMul(acc, x) : B.CreateMul(acc, x); break;
    case RedOp::And: out = B.CreateAnd(acc, x); break;
    case RedOp::Or: out = B.CreateOr(acc, x); break;
    case RedOp::Xor: out = B.CreateXor(acc, x); break;
    case RedOp::Min:
      out = B.CreateSelect(fl    ? B.CreateFCmpOLT(x, acc)
                           : sgn ? B.CreateICmpSLT(x, acc)
                                 : B.CreateICmpULT(x, acc),
                           x, acc);
      break;
    default:
      out = B.CreateSelect(fl    ? B.CreateFCmpOGT(x, acc)
                           : sgn ? B.CreateICmpSGT(x, acc)
                                 : B.CreateICmpUGT(x, acc),
                           x, acc);
    }
    B.CreateStore(out, slot);
    k->addIncoming(B.CreateAdd(k, i64(1)), B.GetInsertBlock());
    B.CreateBr(head);
    B.SetInsertPoint(exit);
  }
  B.CreateStackRestore(saved);
  checkStatus(status);
}

}  // namespace kjit::lowering
