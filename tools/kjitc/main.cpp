// kjitc - the kjit compiler driver, for tests and for looking inside.
//
//   kjitc --emit=ast FILE[:FUNC]       print the AST of FUNC (or of the module)
//   kjitc --emit=tokens FILE           print the token stream
//   kjitc --emit=ir FILE:FUNC --sig="(float64[:], int64)"
//                                      type FUNC for those argument types and
//                                      print the typed IR of it and its callees
//   kjitc --emit=llvm|llvm-opt|asm FILE:FUNC --sig=...
//                                      the LLVM IR as lowered, after O3 for the
//                                      host CPU, or the host assembly
//   kjitc --emit=ptx FILE:FUNC --sig=... [--cc=90] [--device] [--fastmath]
//                                      PTX of FUNC as a CUDA kernel (or, with
//                                      --device, a device function)
//   kjitc --emit=amdgcn|hsaco --target=gfx90a FILE:FUNC --sig=... [-o FILE]
//                                      AMDGCN assembly, or the code object
//                                      (HSACO, written with -o), of FUNC as a
//                                      kernel for that AMD GPU processor
// --target=cuda types and lowers for the GPU (implied by --emit=ptx);
// --target=gfxNNN for an AMD GPU (--emit=llvm then prints its lowering).
// Options: --first-line=N (the text starts at line N of the real file),
//          --name=NAME (the file name shown in messages), --ast-locs.
// Errors go to stderr; the exit status is 1 when any error was reported.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "compiler/Context.h"
#include "compiler/ModuleEnv.h"
#include "compiler/Pipeline.h"
#include "compiler/Signature.h"
#include "compiler/TypeInference.h"
#include "frontend/ASTPrinter.h"
#include "frontend/Lexer.h"
#include "runtime/jit/JitFunction.h"
#include "targets/Driver.h"
#include "targets/amdgpu/AmdgpuTarget.h"
#include "targets/nvptx/NvptxTarget.h"

namespace {

int usage() {
  std::fprintf(
      stderr,
      "usage: kjitc --emit=ast|tokens|ir|llvm|llvm-opt|asm|ptx|amdgcn|hsaco [--sig=SIG] "
      "[--target=host|cuda|gfxNNN] [--cc=NN] [--device] [--fastmath] [--lineinfo] "
      "[--boundscheck] [--first-line=N] [--name=NAME] [--ast-locs] [-o FILE] FILE[:FUNC]\n");
  return 2;
}

std::string tokenLine(const kjit::Token &t) {
  std::string s = fmt::format("{}:{}-{}:{} {}", t.loc.line, t.loc.col, t.loc.endLine, t.loc.endCol,
                              kjit::tokSpelling(t.kind));
  switch (t.kind) {
  case kjit::TokKind::Identifier: s += fmt::format(" {}", t.text); break;
  case kjit::TokKind::Integer:
    s += t.intTooLarge ? fmt::format(" too-large {}", t.text) : fmt::format(" {}", t.intValue);
    break;
  case kjit::TokKind::Float:
  case kjit::TokKind::Imaginary: s += fmt::format(" {}", t.floatValue); break;
  case kjit::TokKind::String: {
    std::string v;
    for (unsigned char c : t.strValue)
      v += (c < 0x20 || c == '\\' || c == '"') ? fmt::format("\\x{:02x}", unsigned(c))
                                               : std::string(1, char(c));
    s += fmt::format(" {}{}\"{}\"", t.isBytes ? "b" : "", t.isFString ? "f" : "", v);
    break;
  }
  default: break;
  }
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  std::string emit = "ast", path, name, sig, target = "host", output;
  int cc = 90;
  bool device = false, fastmath = false, lineinfo = false, boundscheck = false;
  unsigned firstLine = 1;
  kjit::ast::PrintOptions printOpts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    // `--opt value` is the same as `--opt=value` for options that take one.
    for (const char *opt : {"--emit", "--sig", "--cc", "--target", "--first-line", "--name"})
      if (a == opt && i + 1 < argc) a = std::string(opt) + "=" + argv[++i];
    if (a == "-o" && i + 1 < argc)
      output = argv[++i];
    else if (a.rfind("--emit=", 0) == 0)
      emit = a.substr(7);
    else if (a.rfind("--first-line=", 0) == 0)
      firstLine = unsigned(std::stoul(a.substr(13)));
    else if (a.rfind("--name=", 0) == 0)
      name = a.substr(7);
    else if (a.rfind("--sig=", 0) == 0)
      sig = a.substr(6);
    else if (a.rfind("--cc=", 0) == 0)
      cc = std::stoi(a.substr(5));
    else if (a.rfind("--target=", 0) == 0)
      target = a.substr(9);
    else if (a == "--device")
      device = true;
    else if (a == "--fastmath")
      fastmath = true;
    else if (a == "--lineinfo")
      lineinfo = true;
    else if (a == "--boundscheck")
      boundscheck = true;
    else if (a == "--ast-locs")
      printOpts.withExprLocs = true;
    else if (a == "-h" || a == "--help")
      return usage(), 0;
    else if (!a.empty() && a[0] == '-')
      return usage();
    else
      path = a;
  }
  if (path.empty()) return usage();
  std::string func;
  if (size_t colon = path.rfind(':'); colon != std::string::npos && colon + 1 < path.size() &&
                                      path.find('/', colon) == std::string::npos) {
    func = path.substr(colon + 1);
    path = path.substr(0, colon);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "kjitc: error: cannot open '%s': %s\n", path.c_str(),
                 std::strerror(errno));
    return 1;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (name.empty()) name = path;

  kjit::Context ctx;
  if (emit == "tokens") {
    uint32_t id = ctx.sources.add(name, ss.str(), firstLine);
    for (const kjit::Token &t : kjit::lex(ctx.sources, id, ctx.diags))
      std::cout << tokenLine(t) << "\n";
  } else if (emit == "ast") {
    kjit::ParseOptions opts;
    opts.onlyFunction = func;
    kjit::ast::Module m = ctx.parse(name, ss.str(), firstLine, opts);
    if (ctx.diags.hasErrors()) {
      // Only the diagnostics: a tree with error nodes helps nobody.
    } else if (!func.empty()) {
      const kjit::ast::FunctionDef *f = m.findFunction(func);
      if (!f) {
        std::fprintf(stderr, "kjitc: error: no function '%s' in '%s'\n", func.c_str(),
                     path.c_str());
        return 1;
      }
      std::cout << kjit::ast::printStmt(f, printOpts);
    } else {
      std::cout << kjit::ast::printModule(m, printOpts);
    }
  } else if (emit == "ir" || emit == "llvm" || emit == "llvm-opt" || emit == "asm" ||
             emit == "ptx" || emit == "amdgcn" || emit == "hsaco") {
    if (emit == "ptx") target = "cuda";
    bool amdgpu = target.rfind("gfx", 0) == 0;
    if ((emit == "amdgcn" || emit == "hsaco") && !amdgpu) {
      std::fprintf(stderr, "kjitc: error: --emit=%s needs --target=gfxNNN (an AMD GPU)\n",
                   emit.c_str());
      return 2;
    }
    if (amdgpu && !kjit::amdgpuProcessor(target)) {
      std::fprintf(stderr, "kjitc: error: %s\n", kjit::unknownProcessorMessage(target).c_str());
      return 2;
    }
    if (target != "host" && target != "cuda" && !amdgpu) {
      std::fprintf(stderr, "kjitc: error: unknown --target '%s' (host, cuda or gfxNNN)\n",
                   target.c_str());
      return 2;
    }
    if (emit == "hsaco" && output.empty()) {
      std::fprintf(stderr, "kjitc: error: --emit=hsaco writes a binary file: give -o FILE\n");
      return 2;
    }
    bool cuda = target == "cuda" || amdgpu;
    if (amdgpu) ctx.warpSize = kjit::amdgpuProcessor(target)->wavefront;
    ctx.amdgpu = amdgpu;
    if (target == "cuda") ctx.targetCc = cc;  // what the GPU lacks is refused while typing
    if (func.empty()) {
      std::fprintf(stderr, "kjitc: error: --emit=ir needs FILE:FUNC\n");
      return 2;
    }
    kjit::Signature signature;
    std::string err;
    if (!kjit::parseSignature(ctx.types, sig.empty() ? "()" : sig, signature, err)) {
      std::fprintf(stderr, "kjitc: error: %s\n", err.c_str());
      return 2;
    }
    auto fn = kjit::functionFromModule(ctx.session(), name, ss.str(), func);
    if (!fn) {
      std::fprintf(stderr, "kjitc: error: no function '%s' in '%s'\n", func.c_str(), path.c_str());
      return 1;
    }
    fn->fastmath = fastmath ? uint32_t(kjit::FastMath::All) : 0u;
    fn->boundscheck = boundscheck;
    kjit::TypedProgram prog =
        kjit::buildTypedProgram(ctx, fn, signature.args, signature.ret,
                                cuda ? kjit::Target::CUDA : kjit::Target::Host, cuda && !device);
    if (prog.entry && emit == "ir") {
      for (const kjit::ir::Function *f : prog.functions) std::cout << kjit::ir::print(*f);
    } else if (prog.entry) {
      // The back end as the JIT driver runs it (targets/Driver.h).
      kjit::jit::JitRuntime runtime;
      std::string out, err;
      bool ok = true;
      if (amdgpu && emit != "ir") {
        kjit::AmdgpuOptions ao;
        ao.arch = target;
        ao.fastmath = fastmath;
        std::string hsaco, entry, assembly, lowered;
        ok = kjit::buildForAmdgpu(ctx, prog, ao, lineinfo, hsaco, entry,
                                  emit == "amdgcn" ? &assembly : nullptr,
                                  emit == "llvm" ? &lowered : nullptr, err);
        out = emit == "llvm" ? lowered : emit == "amdgcn" ? assembly : "";
        if (ok && emit == "hsaco") {
          std::ofstream f(output, std::ios::binary);
          f.write(hsaco.data(), std::streamsize(hsaco.size()));
          if (!f) {
            std::fprintf(stderr, "kjitc: error: cannot write '%s'\n", output.c_str());
            return 1;
          }
        }
      } else if (emit == "llvm") {
        out = kjit::loweredText(ctx, prog, cuda ? nullptr : &runtime.hostJit(), lineinfo);
      } else if (cuda) {
        kjit::PtxOptions po;
        po.ccMajor = cc / 10;
        po.ccMinor = cc % 10;
        po.fastmath = fastmath;
        po.archSpecific = ctx.archSpecific;
        std::string entry;
        ok = kjit::buildForCuda(ctx, prog, po, lineinfo, out, entry, nullptr, err);
      } else {
        ok = kjit::inspectForHost(ctx, prog, runtime.hostJit(), emit == "asm", out, err);
      }
      if (!ok) {
        std::fprintf(stderr, "kjitc: error: %s\n", err.c_str());
        return 1;
      }
      std::cout << out;
    }
  } else {
    std::fprintf(stderr,
                 "kjitc: error: unknown --emit kind '%s' (this build has: ast, tokens, ir, llvm, "
                 "llvm-opt, asm, ptx, amdgcn, hsaco)\n",
                 emit.c_str());
    return 2;
  }
  std::cout.flush();
  std::string rendered = ctx.diags.render();
  if (!rendered.empty()) std::fputs(rendered.c_str(), stderr);
  return ctx.diags.hasErrors() ? 1 : 0;
}
