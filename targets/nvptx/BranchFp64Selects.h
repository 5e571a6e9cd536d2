// BranchFp64Selects.h - the NVPTX target's undoing of speculated float64
// arithmetic (an LLVM-IR pass: see BranchFp64Selects.cpp for why).
#pragma once

namespace llvm {
class Module;
}

namespace kjit::nvptx {

// Turns `select c, (fp64 op), y` back into a branch around the op, where
// the op has no other use, so that it runs only where it is chosen.
// Returns how many selects it turned.
unsigned branchFp64Selects(llvm::Module &m);

}  // namespace kjit::nvptx
