// Signature.h - Numba's signature strings: "float64(float64[:], int64)",
// "void(int32[:, ::1], float32)", "int64(UniTuple(int64, 2))", and single
// types ("float32[:, ::1]"). Array layouts: [:] any, [::1] C (last axis
// contiguous), [::1, :] F. A record type is spelled by its spec
// (compiler/Types.h, recordSpec): what kjit.types.Record writes.
#pragma once

#include <string>
#include <vector>

#include "compiler/Types.h"

namespace kjit {

struct Signature {
  const Type *ret = nullptr;  // null when only argument types were given
  std::vector<const Type *> args;
};

// Parses a signature (or, with allowBare, a bare "(int64, float64)" or a
// single type's list). On failure returns false and sets `error`.
bool parseSignature(TypeContext &tc, const std::string &text, Signature &out, std::string &error);
const Type *parseType(TypeContext &tc, const std::string &text, std::string &error);

}  // namespace kjit
