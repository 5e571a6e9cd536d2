#include "targets/amdgpu/AmdgpuTarget.h"

#include <fmt/format.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <sys/stat.h>

#include <memory>
#include <mutex>

#include "frontend/support/Options.h"
#include "targets/Codegen.h"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

namespace kjit {

namespace {

bool exists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

void initAmdgpu() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();  // (inline assembly in the device libraries)
  });
}

// The address spaces of the AMDGPU backend.
constexpr unsigned kGlobal = 1, kPrivate = 5;

std::unique_ptr<llvm::TargetMachine> targetMachine(const AmdgpuProcessor &proc, bool fastmath,
                                                   std::string &error) {
  initAmdgpu();
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(amdgpuTriple(), error);
  if (!target) return nullptr;
  llvm::TargetOptions to;
  to.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  if (fastmath) {
    to.UnsafeFPMath = true;
    to.NoInfsFPMath = true;
    to.NoNaNsFPMath = true;
  }
  return std::unique_ptr<llvm::TargetMachine>(
      target->createTargetMachine(amdgpuTriple(), proc.name, "", to, std::nullopt, std::nullopt,
                                  llvm::CodeGenOptLevel::Aggressive));
}

// Stack slots to the private space and globals to the global space, each
// cast back to the flat pointer lowering used (LLVM's address-space
// inference then gives scratch and global instructions), as clang does for
// HIP.
void moveToTargetSpaces(llvm::Module &m) {
  for (llvm::Function &f : m) {
    std::vector<llvm::AllocaInst *> slots;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && a->getAddressSpace() == 0)
          slots.push_back(a);
    for (llvm::AllocaInst *a : slots) {
      llvm::IRBuilder<> b(a);
      llvm::AllocaInst *n = b.CreateAlloca(a->getAllocatedType(), kPrivate, a->getArraySize());
      n->setAlignment(a->getAlign());
      n->takeName(a);
      a->replaceAllUsesWith(b.CreateAddrSpaceCast(n, a->getType()));
      a->eraseFromParent();
    }
  }
  std::vector<llvm::GlobalVariable *> flat;
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == 0) flat.push_back(&g);
  for (llvm::GlobalVariable *g : flat) {
    auto *n = new llvm::GlobalVariable(m, g->getValueType(), g->isConstant(), g->getLinkage(),
                                       g->hasInitializer() ? g->getInitializer() : nullptr, "", g,
                                       g->getThreadLocalMode(), kGlobal);
    n->copyAttributesFrom(g);
    n->takeName(g);
    g->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(n, g->getType()));
    g->eraseFromParent();
  }
}

// Links the device libraries the module calls: ocml and ockl (only what is
// used), then the oclc control constants they read, for the processor and
// the options; everything linked becomes internal.
bool linkDeviceLibs(llvm::Module &m, const AmdgpuProcessor &proc, const AmdgpuOptions &opts,
                    std::string &error) {
  bool needed = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() &&
        (f.getName().starts_with("__ocml_") || f.getName().starts_with("__ockl_")))
      needed = true;
  if (!needed) return true;
  std::string dir = opts.deviceLibDir.empty() ? findRocmDeviceLibs() : opts.deviceLibDir;
  if (dir.empty()) {
    error =
        "this kernel calls math or runtime functions, which need the ROCm device libraries "
        "(ocml.bc, ockl.bc); install Debian's rocm-device-libs or set KJIT_ROCM_DEVICE_LIBS";
    return false;
  }
  std::vector<std::string> files = {"ocml.bc", "ockl.bc"};
  files.push_back(fmt::format("oclc_isa_version_{}.bc", proc.isa));
  files.push_back(proc.wavefront == 64 ? "oclc_wavefrontsize64_on.bc"
                                       : "oclc_wavefrontsize64_off.bc");
  files.push_back(opts.fastmath ? "oclc_daz_opt_on.bc" : "oclc_daz_opt_off.bc");
  files.push_back(opts.fastmath ? "oclc_finite_only_on.bc" : "oclc_finite_only_off.bc");
  files.push_back(opts.fastmath ? "oclc_unsafe_math_on.bc" : "oclc_unsafe_math_off.bc");
  files.push_back("oclc_correctly_rounded_sqrt_on.bc");
  files.push_back("oclc_abi_version_500.bc");
  for (const std::string &name : files) {
    std::string path = dir + "/" + name;
    if (!exists(path)) {
      // Old device libraries have no ABI-version file (code object v4).
      if (name == "oclc_abi_version_500.bc") continue;
      error = fmt::format("the ROCm device libraries in {} have no {} (is {} supported by them?)",
                          dir, name, proc.name);
      return false;
    }
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf) {
      error = "cannot read " + path + ": " + buf.getError().message();
      return false;
    }
    auto lib = llvm::parseBitcodeFile(buf.get()->getMemBufferRef(), m.getContext());
    if (!lib) {
      error = "cannot parse " + path + ": " + llvm::toString(lib.takeError());
      return false;
    }
    (*lib)->setTargetTriple(m.getTargetTriple());
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded)) {
      error = "cannot link " + path;
      return false;
    }
  }
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && (f.getName().starts_with("__ocml_") ||
                               f.getName().starts_with("__ockl_") || f.hasLinkOnceODRLinkage()))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getName().starts_with("__oclc_")) g.setLinkage(llvm::GlobalValue::InternalLinkage);
  // The libraries are OpenCL C; the kernel is not (the code object's
  // metadata would say `.language: OpenCL C`).
  if (llvm::NamedMDNode *ocl = m.getNamedMetadata("opencl.ocl.version")) m.eraseNamedMetadata(ocl);
  return true;
}

bool isKernel(const llvm::Function &f) {
  return f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
}

}  // namespace

const std::vector<AmdgpuProcessor> &amdgpuProcessors() {
  // CDNA and GCN run wavefronts of 64 lanes, RDNA of 32 (HIP's default
  // there). gfx942 and gfx11xx need device libraries newer than Debian's.
  static const std::vector<AmdgpuProcessor> procs = {
      {"gfx900", 64, "900"},   {"gfx906", 64, "906"},   {"gfx908", 64, "908"},
      {"gfx90a", 64, "90a"},   {"gfx940", 64, "940"},   {"gfx941", 64, "941"},
      {"gfx942", 64, "942"},   {"gfx1030", 32, "1030"}, {"gfx1031", 32, "1031"},
      {"gfx1100", 32, "1100"}, {"gfx1101", 32, "1101"}, {"gfx1102", 32, "1102"}};
  return procs;
}

const AmdgpuProcessor *amdgpuProcessor(const std::string &name) {
  std::string base = name.substr(0, name.find(':'));  // gfx90a:xnack- names gfx90a
  for (const AmdgpuProcessor &p : amdgpuProcessors())
    if (base == p.name) return &p;
  return nullptr;
}

std::string unknownProcessorMessage(const std::string &name) {
  std::string known;
  for (const AmdgpuProcessor &p : amdgpuProcessors())
    known += std::string(known.empty() ? "" : ", ") + p.name;
  return fmt::format("unknown AMD GPU processor '{}' (kjit knows {})", name, known);
}

std::string findRocmDeviceLibs() {
  if (auto d = envString("KJIT_ROCM_DEVICE_LIBS"); d && exists(*d + "/ocml.bc")) return *d;
  for (const char *var : {"ROCM_PATH", "HIP_PATH"})
    if (auto h = envString(var); h && exists(*h + "/amdgcn/bitcode/ocml.bc"))
      return *h + "/amdgcn/bitcode";
  for (const char *d : {"/opt/rocm/amdgcn/bitcode", "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                        "/usr/lib/amdgcn/bitcode"})
    if (exists(std::string(d) + "/ocml.bc")) return d;
  return "";
}

const char *amdgpuTriple() { return "amdgcn-amd-amdhsa"; }

std::string amdgpuLoweringDataLayout() {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = targetMachine(*amdgpuProcessor("gfx90a"), false, error);
  if (!tm) return "";
  std::string dl = tm->createDataLayout().getStringRepresentation();
  for (const char *part : {"-A5", "-G1"})
    if (size_t at = dl.find(part); at != std::string::npos) dl.erase(at, 3);
  return dl;
}

bool compileToHsaco(llvm::Module &m, const AmdgpuOptions &opts, std::string &hsaco,
                    std::string *assembly, std::string &error) {
  const AmdgpuProcessor *proc = amdgpuProcessor(opts.arch);
  if (!proc) {
    error = unknownProcessorMessage(opts.arch);
    return false;
  }
  std::unique_ptr<llvm::TargetMachine> tm = targetMachine(*proc, opts.fastmath, error);
  if (!tm) return false;
  moveToTargetSpaces(m);
  m.setTargetTriple(amdgpuTriple());
  m.setDataLayout(tm->createDataLayout());
  m.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", 500);
  if (!linkDeviceLibs(m, *proc, opts, error)) return false;
  std::string flatSize =
      fmt::format("1,{}", opts.maxThreadsPerBlock > 0 ? opts.maxThreadsPerBlock : 1024);
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) {
      if (f.isIntrinsic() || f.use_empty()) continue;
      error = fmt::format(
          "the kernel calls '{}', which the AMD GPU target does not have (external CUDA code "
          "from cuda.declare_device runs only on NVIDIA GPUs)",
          f.getName().str());
      return false;
    }
    f.addFnAttr("target-cpu", proc->name);
    if (isKernel(f)) {
      f.addFnAttr("amdgpu-flat-work-group-size", flatSize);
      f.addFnAttr("uniform-work-group-size", "true");
    }
  }
  if (!finishGpuModule(m, opts.fastmath, error)) return false;
  optimizeO3(m, *tm);
  if (dumpRequested("amdgpu-llvm")) m.print(llvm::errs(), nullptr);
  if (assembly) {  // (code generation changes the module it runs on: a copy)
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
    if (!emitFile(*copy, *tm, /*object=*/false, *assembly)) {
      error = "the AMDGPU target cannot emit assembly";
      return false;
    }
  }
  std::string object;
  if (!emitFile(m, *tm, /*object=*/true, object)) {
    error = "the AMDGPU target cannot emit an object file";
    return false;
  }
  return linkCodeObject(object, hsaco, error);
}

}  // namespace kjit
