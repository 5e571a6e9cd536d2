#include "targets/nvptx/NvptxTarget.h"

#include "targets/Codegen.h"

#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>
#include <sys/stat.h>

#include <fmt/format.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace kjit {

namespace {

// A 64-bit integer converted to floating point costs several times a 32-bit
// one on NVIDIA GPUs (I2F.S64 is not full rate). Python's loop indices are
// int64, so `float32(k)` in `for k in range(64)` would pay it where nvcc's
// `int k` does not: convert from 32 bits wherever the value provably fits.
void narrowIntToFloat(llvm::Module &m) {
  llvm::PassBuilder pb;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    llvm::ScalarEvolution *se = nullptr;
    std::vector<llvm::CastInst *> work;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &in : bb) {
        if (!(llvm::isa<llvm::SIToFPInst>(in) || llvm::isa<llvm::UIToFPInst>(in)) ||
            !in.getOperand(0)->getType()->isIntegerTy(64))
          continue;
        if (!se) se = &fam.getResult<llvm::ScalarEvolutionAnalysis>(f);
        llvm::ConstantRange r = se->getSignedRange(se->getSCEV(in.getOperand(0)));
        bool fits = r.getSignedMin().sge(INT32_MIN) && r.getSignedMax().sle(INT32_MAX);
        // An unsigned conversion reads the bits as unsigned: only a
        // non-negative range keeps its value.
        if (fits && llvm::isa<llvm::UIToFPInst>(in) && r.getSignedMin().isNegative()) fits = false;
        if (fits) work.push_back(llvm::cast<llvm::CastInst>(&in));
      }
    for (llvm::CastInst *c : work) {
      llvm::IRBuilder<> b(c);
      llvm::Value *narrow = b.CreateTrunc(c->getOperand(0), b.getInt32Ty());
      c->replaceAllUsesWith(b.CreateSIToFP(narrow, c->getType()));
      c->eraseFromParent();
    }
  }
}

}  // namespace

namespace {

bool exists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

std::string findLibdevice() {
  const char *rel = "/nvvm/libdevice/libdevice.10.bc";
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char *h = std::getenv(var); h && exists(std::string(h) + rel)) return std::string(h) + rel;
  }
  if (exists(std::string("/usr/local/cuda") + rel)) return std::string("/usr/local/cuda") + rel;
  // Next to ptxas: <cuda>/bin/ptxas.
  if (const char *path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
      if (!exists(dir + "/ptxas")) continue;
      std::string root = dir.substr(0, dir.rfind('/'));
      if (exists(root + rel)) return root + rel;
    }
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

static void initNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
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
  std::string cpu = fmt::format("sm_{}{}", opts.ccMajor, opts.ccMinor);
  std::string features = fmt::format("+ptx{}", ptxVersionFor(opts.ccMajor, opts.ccMinor));
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
      error = "this kernel calls math functions, which need CUDA's libdevice "
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
      if (!f.isDeclaration() && f.getName().starts_with("__nv_")) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  // Launch annotations on every kernel: .maxnreg, .maxntid, .minnctapersm.
  if (llvm::NamedMDNode *ann = m.getNamedMetadata("nvvm.annotations")) {
    std::vector<llvm::Function *> kernels;
    for (llvm::MDNode *op : ann->operands())
      if (op->getNumOperands() == 3)
        if (auto *s = llvm::dyn_cast<llvm::MDString>(op->getOperand(1)); s && s->getString() == "kernel")
          if (auto *v = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(op->getOperand(0)))
            if (auto *f = llvm::dyn_cast<llvm::Function>(v->getValue())) kernels.push_back(f);
    llvm::LLVMContext &c = m.getContext();
    auto annotate = [&](llvm::Function *f, const char *key, int value) {
      if (value <= 0) return;
      ann->addOperand(llvm::MDNode::get(
          c, {llvm::ValueAsMetadata::get(f), llvm::MDString::get(c, key),
              llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), value))}));
    };
    for (llvm::Function *f : kernels) {
      annotate(f, "maxnreg", opts.maxRegisters);
      annotate(f, "maxntidx", opts.maxThreadsPerBlock);
      annotate(f, "minctasm", opts.minBlocksPerSM);
    }
  }
  // NVVMReflect answers __nvvm_reflect("__CUDA_FTZ") from this flag.
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", opts.fastmath ? 1 : 0);
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", cpu);
    f.addFnAttr("target-features", features);
    if (opts.fastmath) {
      f.addFnAttr("denormal-fp-math-f32", "preserve-sign");
      f.addFnAttr("unsafe-fp-math", "true");
    }
  }
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  if (llvm::verifyModule(m, &vos)) {
    error = "internal error: the generated LLVM IR is invalid:\n" + verify;
    return false;
  }
  optimizeO3(m, *tm);
  narrowIntToFloat(m);
  if (!emitFile(m, *tm, /*object=*/false, ptx)) {
    error = "the NVPTX target cannot emit PTX";
    return false;
  }
  return true;
}

}  // namespace kjit
