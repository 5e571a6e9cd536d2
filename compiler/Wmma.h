// Wmma.h - cuda.wmma's fragments: what their types say, for the typer
// (builtins/Wmma.cpp), the GPU and CPU-device lowerings (LoweringWmma.cpp)
// and the CPU device's runtime (runtime/host/CpuMatrix.cpp).
//
// A fragment is a named tuple of the elements one lane holds, its class
// naming its use, element type and (for a and b) layout:
//   wmma.matrix_a[16x16x16,float16,row]   16 float16 a lane (each element twice)
//   wmma.matrix_b[16x16x16,bfloat16,col]  8 bfloat16 a lane
//   wmma.accumulator[16x16x16,float32]    8 float32 a lane
// As in PTX, which element of the tile a lane's element i is, is not
// specified (the GPU's own mapping; the CPU device's is in CpuMatrix.cpp).
#pragma once

#include <optional>
#include <string>

#include "compiler/Types.h"

namespace kjit::wmma {

enum class Use : int { A = 0, B = 1, Acc = 2 };

struct Fragment {
  Use use = Use::Acc;
  const Type *elem = nullptr;  // float16 or bfloat16 (a, b); float32 (accumulator)
  bool colMajor = false;       // a and b: the layout of the matrix in memory
};

// Elements a lane holds: a/b float16 16, bfloat16 8; accumulators 8.
inline unsigned elementsPerLane(Use use, const Type *elem) {
  return use != Use::Acc && elem->isHalf() ? 16 : 8;
}

inline std::string className(const Fragment &f) {
  if (f.use == Use::Acc) return "wmma.accumulator[16x16x16," + f.elem->str() + "]";
  return std::string(f.use == Use::A ? "wmma.matrix_a" : "wmma.matrix_b") + "[16x16x16," +
         f.elem->str() + (f.colMajor ? ",col]" : ",row]");
}

// The fragment a type is, or nothing.
inline std::optional<Fragment> fragmentOf(const Type *t) {
  if (!t || !t->isTuple() || t->elements().empty()) return std::nullopt;
  const std::string &n = t->symbol();
  Fragment f;
  f.elem = t->elements()[0];
  for (Use u : {Use::A, Use::B, Use::Acc})
    for (bool col : {false, true}) {
      f.use = u;
      f.colMajor = u != Use::Acc && col;
      if (className(f) == n && t->elements().size() == elementsPerLane(u, f.elem)) return f;
    }
  return std::nullopt;
}

}  // namespace kjit::wmma
