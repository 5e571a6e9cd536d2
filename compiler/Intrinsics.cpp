// Intrinsics.cpp - Intrinsics.def's columns as tables.
#include "compiler/IR.h"

namespace kjit::ir {

namespace {

constexpr MemoryEffect NoMem = MemoryEffect::NoMem, ReadMem = MemoryEffect::ReadMem,
                       WriteMem = MemoryEffect::WriteMem;
constexpr bool NoRaise = false, MayRaise = true, NoSync = false, Barrier = true;

const IntrinsicInfo intrinsics[] = {
#define INTRINSIC(Id, Name, Arity, Memory, Raises, Sync) {Name, Arity, Memory, Raises, Sync},
#include "compiler/Intrinsics.def"
};

const SubOpInfo subOps[] = {
    {IntrinsicId::Print, "", ""},  // SubOp::None
#define INTRINSIC_SUBOP(Intrinsic, Id, Name, KernelName) {IntrinsicId::Intrinsic, Name, KernelName},
#include "compiler/Intrinsics.def"
};

}  // namespace

const IntrinsicInfo &intrinsicInfo(IntrinsicId id) { return intrinsics[unsigned(id)]; }

bool isArrayReduction(IntrinsicId id) {
  switch (id) {
  case IntrinsicId::ArraySum:
  case IntrinsicId::ArrayProd:
  case IntrinsicId::ArrayMin:
  case IntrinsicId::ArrayMax:
  case IntrinsicId::ArrayAll:
  case IntrinsicId::ArrayAny:
  case IntrinsicId::ArrayCountNonzero:
  case IntrinsicId::ArrayNanSum:
  case IntrinsicId::ArrayNanProd:
  case IntrinsicId::ArrayNanMin:
  case IntrinsicId::ArrayNanMax:
  case IntrinsicId::ArrayNanMean:
  case IntrinsicId::ArrayVar: return true;
  default: return false;
  }
}

const SubOpInfo &subOpInfo(SubOp op) { return subOps[unsigned(op)]; }

SubOp subOpNamed(IntrinsicId id, const std::string &name) {
  for (unsigned k = 1; k < sizeof(subOps) / sizeof(subOps[0]); ++k)
    if (subOps[k].intrinsic == id && name == subOps[k].name) return SubOp(k);
  return SubOp::None;
}

}  // namespace kjit::ir
