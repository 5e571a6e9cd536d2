// NarrowIntegers.h - the NVPTX target's integer narrowing (an LLVM-IR pass:
// see NarrowIntegers.cpp for why it is not a typed-IR pass).
#pragma once

namespace llvm {
class Module;
}

namespace kjit::nvptx {

// Converts int64 values to floating point from 32 bits, and counts loops in
// 32 bits, wherever scalar evolution proves that the values fit.
void narrowIntegers(llvm::Module &m);

}  // namespace kjit::nvptx
