// Context.h - the state of one compilation.
//
// A Context owns what one compilation makes: the source buffers, the
// diagnostics, the AST and IR arenas, the type interner and the IR
// builder over them. Compiled code outlives it (the JIT owns that), and so
// does what compilations share, the Session it refers to (Session.h: the
// library functions made so far, the @jitclass classes). A Context made
// alone makes a Session of its own; the JIT's contexts share the runtime's.
// Nothing lives in static storage: two Contexts share only a Session given
// to both.
#pragma once

#include <memory>
#include <string>

#include "compiler/IR.h"
#include "compiler/IRBuilder.h"
#include "compiler/Session.h"
#include "compiler/Types.h"
#include "frontend/AST.h"
#include "frontend/Parser.h"
#include "frontend/support/Diagnostics.h"
#include "frontend/support/SourceLoc.h"

namespace kjit {

class Context {
 public:
  // A Context with a Session of its own.
  Context();
  // A Context that uses `session`, which others may share.
  explicit Context(std::shared_ptr<Session> session);
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  // What outlives this compilation: the library functions, the @jitclass
  // classes.
  Session &session() const { return *session_; }

  SourceManager sources;
  DiagnosticEngine diags;
  ast::ASTContext astArena;
  TypeContext types;
  ir::IRArena irArena;
  ir::Builder ir{irArena, types};  // makes the nodes of irArena, checked
  // Array accesses checked in every function of this compilation, whatever
  // their boundscheck option says (CUDA kernels on the CPU device, where an
  // access out of bounds would end the process; unless boundscheck=False).
  bool checkBounds = false;
  // The lanes of a warp on the GPU compiled for: 32 (NVIDIA, RDNA) or 64
  // (AMD's CDNA and GCN wavefronts). cuda.warpsize is it; lane masks have
  // as many bits (uint64 on 64).
  unsigned warpSize = 32;
  // Compiling for an AMD GPU (what it lacks is refused while typing), and
  // which one ("gfx90a"; empty where typing does not know yet).
  bool amdgpu = false;
  std::string amdgpuArch;
  // The NVIDIA GPU compiled for, as 10 * major + minor (80: sm_80); 0 when
  // unknown to typing (the CPU device, the typing of a launch before its
  // device is chosen). Operations a GPU lacks are refused against it.
  int targetCc = 0;
  // Set by typing when a kernel uses an sm_90a instruction (wgmma,
  // setmaxnreg): its PTX then targets sm_90a, which only 9.0 GPUs run.
  bool archSpecific = false;

  // Registers `text` (a module, or a function's text whose first line is
  // line `firstLine` of `filename`) and parses it.
  ast::Module parse(std::string filename, std::string text, uint32_t firstLine = 1,
                    const ParseOptions &opts = {});

 private:
  std::shared_ptr<Session> session_;
};

}  // namespace kjit
