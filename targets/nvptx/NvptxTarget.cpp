#include "targets/nvptx/NvptxTarget.h"

#include <fmt/format.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "frontend/support/Options.h"
#include "targets/Codegen.h"
#include "targets/nvptx/BranchFp64Selects.h"
#include "targets/nvptx/NarrowIntegers.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace kjit {

namespace {

bool exists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

std::string findLibdevice() {
  const char *rel = "/nvvm/libdevice/libdevice.10.bc";
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (auto h = envString(var); h && exists(*h + rel)) return *h + rel;
  }
  if (exists(std::string("/usr/local/cuda") + rel)) return std::string("/usr/local/cuda") + rel;
  // Next to ptxas: <cuda>/bin/ptxas.
  for (const std::string &dir : envList("PATH", ':')) {
    if (!exists(dir + "/ptxas")) continue;
    std::string root = dir.substr(0, dir.rfind('/'));
    if (exists(root + rel)) return root + rel;
  }
  return "";
}

int ptxVersionFor(int major, int minor) {
  // The oldest PTX ISA each architecture needs, and at least 8.0 (LLVM 19
  // emits up to 8.5; CUDA 12 and 13 drivers load it).
  int cc = major * 10 + minor;
  int need = cc >= 90 ? 80 : 78;
  return std::max(need, 80);
}

// The newest NVPTX processor LLVM 19 knows that is not newer than compute
// capability `cc` (100: 10.0). LLVM aborts on a processor it does not know
// ("'sm_100' is not a recognized processor", then "Cannot select"); PTX is
// compiled forward by the driver, so sm_90 code runs on a 10.0 GPU.
static int nvptxProcessorFor(int cc) {
  static const int known[] = {30, 32, 35, 37, 50, 52, 53, 60, 61,
                              62, 70, 72, 75, 80, 86, 87, 89, 90};
  int best = known[0];
  for (int k : known)
    if (k <= cc) best = k;
  return best;
}

static void initNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

// A test of the low bit, `(x & 1) == 0`, is selected by NVPTX as
// `and.b32 %r, %x, 1; setp.eq.b32 %p, %r, 1` (with the select's arms
// swapped). ptxas turns a comparison with 1 into LOP3 + ISETP, but a
// comparison with 0 into one LOP3 that writes the predicate, as in nvcc's
// code. sin and cos test their quadrant's low bit once a call, so this is
// one instruction in 44 of a sin*exp loop. Rewrites `setp.eq|ne %p, %r, 1`
// into `setp.ne|eq %p, %r, 0` where, in the same function, %r is written by
// exactly one instruction, `and.b32 %r, _, 1` (so it holds 0 or 1). Every
// register an instruction writes counts: guarded ones (`@%p mov ...`),
// vectors (`{%r1, %r2}`) and pairs (`%r1|%p1`).
namespace {

struct PtxLine {
  std::string_view guard, op, dest, rest;  // rest: the operands after the destination
};

// Splits an instruction line; false for directives, labels and braces.
bool parsePtxLine(std::string_view l, PtxLine &out) {
  size_t b = l.find_first_not_of(" \t");
  if (b == std::string_view::npos) return false;
  l.remove_prefix(b);
  if (l[0] == '.' || l[0] == '{' || l[0] == '}' || l[0] == '/' ||
      l.find(':') != std::string_view::npos)
    return false;
  auto word = [&]() {
    size_t e = l.find_first_of(" \t");
    std::string_view w = l.substr(0, e);
    l.remove_prefix(e == std::string_view::npos ? l.size() : e);
    l.remove_prefix(std::min(l.size(), l.find_first_not_of(" \t")));
    return w;
  };
  out.guard = l[0] == '@' ? word() : std::string_view();
  out.op = word();
  size_t end = l[0] == '{' ? l.find('}') : l.find_first_of(",;");
  if (end == std::string_view::npos) return false;
  if (l[0] == '{') ++end;
  out.dest = l.substr(0, end);
  out.rest = l.substr(end);
  return true;
}

// The %registers named in `text`.
template <class F>
void eachRegister(std::string_view text, F &&visit) {
  for (size_t i = text.find('%'); i != std::string_view::npos; i = text.find('%', i + 1)) {
    size_t e = i + 1;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_'))
      ++e;
    visit(text.substr(i, e - i));
  }
}

}  // namespace

void rewriteLowBitTests(std::string &ptx) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at <= ptx.size();) {
    size_t end = ptx.find('\n', at);
    if (end == std::string::npos) end = ptx.size();
    lines.emplace_back(ptx.data() + at, end - at);
    at = end + 1;
  }
  auto isFunction = [](std::string_view l) {
    return l.find(".entry ") != std::string_view::npos ||
           l.find(".func ") != std::string_view::npos;
  };
  std::vector<std::string> replaced(lines.size());
  std::vector<bool> changed(lines.size(), false);
  for (size_t begin = 0; begin < lines.size();) {
    size_t end = begin + 1;
    while (end < lines.size() && !isFunction(lines[end])) ++end;
    // One function: who writes each register, and which are `and %r, _, 1`.
    std::map<std::string_view, int> writes;
    std::set<std::string_view> bits;
    for (size_t i = begin; i < end; ++i) {
      PtxLine p;
      if (!parsePtxLine(lines[i], p)) continue;
      eachRegister(p.dest, [&](std::string_view r) { ++writes[r]; });
      if (p.guard.empty() && p.op == "and.b32" && p.rest.size() >= 4 &&
          p.rest.substr(p.rest.size() - 4) == ", 1;")
        bits.insert(p.dest);
    }
    for (size_t i = begin; i < end; ++i) {
      PtxLine p;
      if (!parsePtxLine(lines[i], p) || !p.guard.empty()) continue;
      if (p.op != "setp.eq.b32" && p.op != "setp.ne.b32" && p.op != "setp.eq.s32" &&
          p.op != "setp.ne.s32" && p.op != "setp.eq.u32" && p.op != "setp.ne.u32")
        continue;
      std::string_view operands =
          p.rest.substr(std::min(p.rest.size(), p.rest.find_first_not_of(", ")));
      size_t c = operands.find(',');
      if (c == std::string_view::npos || operands.substr(c) != ", 1;") continue;
      std::string_view r = operands.substr(0, c);
      auto w = writes.find(r);
      if (!bits.count(r) || w == writes.end() || w->second != 1) continue;
      replaced[i] = fmt::format("\tsetp.{}.b32 \t{}, {}, 0;",
                                p.op.substr(5, 2) == "eq" ? "ne" : "eq", p.dest, r);
      changed[i] = true;
    }
    begin = end;
  }
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    out += changed[i] ? std::string_view(replaced[i]) : lines[i];
  }
  ptx = std::move(out);
}

bool compileToPtx(llvm::Module &m, const PtxOptions &opts, std::string &ptx, std::string &error) {
  initNvptx();
  const std::string triple = "nvptx64-nvidia-cuda";
  std::string err;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target) {
    error = "the NVPTX target is not available in this LLVM: " + err;
    return false;
  }
  int sm = nvptxProcessorFor(opts.ccMajor * 10 + opts.ccMinor);
  std::string cpu = fmt::format("sm_{}{}", sm, sm == 90 && opts.archSpecific ? "a" : "");
  std::string features = fmt::format("+ptx{}", ptxVersionFor(sm / 10, sm % 10));
  llvm::TargetOptions to;
  // Fuse a * b + c into fma, as nvcc does by default (-fmad=true).
  to.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  if (opts.fastmath) {
    to.UnsafeFPMath = true;
    to.NoInfsFPMath = true;
    to.NoNaNsFPMath = true;
  }
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, to, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  m.setTargetTriple(triple);
  m.setDataLayout(tm->createDataLayout());

  // libdevice, when a math function needs it.
  bool needsLibdevice = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) needsLibdevice = true;
  if (needsLibdevice) {
    std::string path = opts.libdevice.empty() ? findLibdevice() : opts.libdevice;
    if (path.empty()) {
      error =
          "this kernel calls math functions, which need CUDA's libdevice "
          "(nvvm/libdevice/libdevice.10.bc); set CUDA_HOME to the CUDA toolkit";
      return false;
    }
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf) {
      error = "cannot read libdevice at " + path + ": " + buf.getError().message();
      return false;
    }
    auto lib = llvm::parseBitcodeFile(buf.get()->getMemBufferRef(), m.getContext());
    if (!lib) {
      error = "cannot parse libdevice at " + path + ": " + llvm::toString(lib.takeError());
      return false;
    }
    (*lib)->setTargetTriple(triple);
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded)) {
      error = "cannot link libdevice";
      return false;
    }
    for (llvm::Function &f : m)
      if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  // Launch annotations on every kernel: .maxnreg, .maxntid, .minnctapersm,
  // .maxclusterrank (NVPTX emits the last for sm_90 and later only).
  if (llvm::NamedMDNode *ann = m.getNamedMetadata("nvvm.annotations")) {
    std::vector<llvm::Function *> kernels;
    for (llvm::MDNode *op : ann->operands())
      if (op->getNumOperands() == 3)
        if (auto *s = llvm::dyn_cast<llvm::MDString>(op->getOperand(1));
            s && s->getString() == "kernel")
          if (auto *v = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(op->getOperand(0)))
            if (auto *f = llvm::dyn_cast<llvm::Function>(v->getValue())) kernels.push_back(f);
    llvm::LLVMContext &c = m.getContext();
    auto annotate = [&](llvm::Function *f, const char *key, int value) {
      if (value <= 0) return;
      ann->addOperand(
          llvm::MDNode::get(c, {llvm::ValueAsMetadata::get(f), llvm::MDString::get(c, key),
                                llvm::ConstantAsMetadata::get(
                                    llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), value))}));
    };
    for (llvm::Function *f : kernels) {
      annotate(f, "maxnreg", opts.maxRegisters);
      annotate(f, "maxntidx", opts.maxThreadsPerBlock);
      annotate(f, "minctasm", opts.minBlocksPerSM);
      annotate(f, "maxclusterrank", opts.maxClusterRank);
    }
  }
  // NVVMReflect answers __nvvm_reflect("__CUDA_FTZ") from this flag.
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", opts.fastmath ? 1 : 0);
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", cpu);
    f.addFnAttr("target-features", features);
  }
  if (!finishGpuModule(m, opts.fastmath, error)) return false;
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  optimizeO3(m, *tm);
  nvptx::narrowIntegers(m);
  nvptx::branchFp64Selects(m);
  if (llvm::verifyModule(m, &vos)) {
    error = "internal error: narrowing loop counters made invalid LLVM IR:\n" + verify;
    return false;
  }
  if (dumpRequested("nvptx-llvm"))
    m.print(llvm::errs(), nullptr);  // KJIT_DUMP=nvptx-llvm: what NVPTX selects from
  if (!emitFile(m, *tm, /*object=*/false, ptx)) {
    error = "the NVPTX target cannot emit PTX";
    return false;
  }
  rewriteLowBitTests(ptx);
  return true;
}

}  // namespace kjit
