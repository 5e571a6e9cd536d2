#include "targets/host/HostJit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <mutex>

#include "targets/Codegen.h"

namespace kjit {

struct HostJit::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string cpu;
  std::mutex mutex;  // LLJIT is thread-safe; the pass pipeline setup is not shared
  std::atomic<uint64_t> modules{0};
};

HostJit::HostJit() : impl_(std::make_unique<Impl>()) {}
HostJit::~HostJit() = default;

const std::string &HostJit::cpuName() const { return impl_->cpu; }

std::string HostJit::uniqueModuleName() { return "kjit" + std::to_string(impl_->modules++); }

std::unique_ptr<HostJit> HostJit::create(const std::vector<RuntimeSymbol> &runtime,
                                         std::string &error) {
  static std::once_flag once;  // LLVM's target registry is process-wide
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // bfloat16 rounds the same on every CPU: x86's bfloat16 conversion
  // instructions (AVX512-BF16, AVX-NE-CONVERT) flush subnormals to zero, so
  // LLVM is kept from them and rounds through the runtime's __truncsfbf2
  // (to nearest even; HostRuntime.cpp).
  if (jtmb->getTargetTriple().isX86())
    for (const char *f : {"avx512bf16", "avxneconvert", "amx-bf16"})
      jtmb->getFeatures().AddFeature(f, /*Enable=*/false);
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    error = llvm::toString(tm.takeError());
    return nullptr;
  }
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  std::unique_ptr<HostJit> hj(new HostJit());
  hj->impl_->cpu = (*tm)->getTargetCPU().str();
  hj->impl_->tm = std::move(*tm);
  hj->impl_->jit = std::move(*jit);
  llvm::orc::JITDylib &jd = hj->impl_->jit->getMainJITDylib();
  // The runtime's entry points, by address; libm and libc from the process.
  llvm::orc::SymbolMap symbols;
  for (const RuntimeSymbol &s : runtime)
    symbols[hj->impl_->jit->mangleAndIntern(s.name)] = {llvm::orc::ExecutorAddr::fromPtr(s.address),
                                                        llvm::JITSymbolFlags::Exported};
  if (auto err = jd.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      hj->impl_->jit->getDataLayout().getGlobalPrefix());
  if (!gen) {
    error = llvm::toString(gen.takeError());
    return nullptr;
  }
  jd.addGenerator(std::move(*gen));
  return hj;
}

// The address of `symbol` in the JIT, as `out.entry`.
static bool lookupEntry(llvm::orc::LLJIT &jit, const std::string &symbol, CompiledCode &out,
                        std::string &error) {
  auto sym = jit.lookup(symbol);
  if (!sym) {
    error = llvm::toString(sym.takeError());
    return false;
  }
  out.entry = sym->toPtr<void *>();
  return true;
}

static bool prepare(llvm::Module &m, llvm::TargetMachine &tm, std::string &error) {
  m.setDataLayout(tm.createDataLayout());
  m.setTargetTriple(tm.getTargetTriple().str());
  std::string verify;
  llvm::raw_string_ostream os(verify);
  if (llvm::verifyModule(m, &os)) {
    error = "internal error: the generated LLVM IR is invalid:\n" + verify;
    return false;
  }
  // Target attributes, so that the vectoriser uses the host's vector width.
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", tm.getTargetCPU());
    f.addFnAttr("target-features", tm.getTargetFeatureString());
    // 256-bit vectors, as clang prefers on most AVX-512 CPUs: 512-bit ones
    // rarely help loops bound by memory and can lower the clock.
    f.addFnAttr("prefer-vector-width", "256");
  }
  optimizeO3(m, tm);
  return true;
}

bool HostJit::compileToObject(llvm::Module &module, std::string &object, std::string &error) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!prepare(module, *impl_->tm, error)) return false;
  if (!emitFile(module, *impl_->tm, /*object=*/true, object)) {
    error = "the host target cannot emit object files";
    return false;
  }
  return true;
}

bool HostJit::addObject(const std::string &object, const std::string &entrySymbol,
                        CompiledCode &out, std::string &error) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (auto sym = impl_->jit->lookup(entrySymbol)) {
    out.entry = sym->toPtr<void *>();
    return true;
  } else {
    llvm::consumeError(sym.takeError());
  }
  auto mb = llvm::MemoryBuffer::getMemBufferCopy(object, entrySymbol);
  if (auto err = impl_->jit->addObjectFile(std::move(mb))) {
    error = llvm::toString(std::move(err));
    return false;
  }
  return lookupEntry(*impl_->jit, entrySymbol, out, error);
}

std::string HostJit::dataLayout() const {
  return impl_->tm->createDataLayout().getStringRepresentation();
}
std::string HostJit::triple() const { return impl_->tm->getTargetTriple().str(); }

std::string HostJit::targetDescription() const {
  return impl_->tm->getTargetTriple().str() + " " + impl_->cpu + " " +
         impl_->tm->getTargetFeatureString().str();
}

bool HostJit::optimizeOnly(llvm::Module &module, bool wantAsm, CompiledCode &out,
                           std::string &error) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!prepare(module, *impl_->tm, error)) return false;
  llvm::raw_string_ostream os(out.optimizedIR);
  module.print(os, nullptr);
  if (wantAsm) emitFile(module, *impl_->tm, /*object=*/false, out.assembly);
  return true;
}

bool HostJit::add(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> module,
                  const std::string &entrySymbol, CompiledCode &out, std::string &error) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!prepare(*module, *impl_->tm, error)) {
    module.reset();  // before its context: the parameters' order of destruction is the compiler's
    return false;
  }
  llvm::orc::ThreadSafeModule tsm(std::move(module), std::move(ctx));
  if (auto err = impl_->jit->addIRModule(std::move(tsm))) {
    error = llvm::toString(std::move(err));
    return false;
  }
  return lookupEntry(*impl_->jit, entrySymbol, out, error);
}

}  // namespace kjit
