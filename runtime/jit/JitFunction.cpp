// JitFunction.cpp - see JitFunction.h.
#include "runtime/jit/JitFunction.h"

#include <fmt/format.h>

#include "compiler/CacheKey.h"
#include "compiler/Context.h"
#include "compiler/Pipeline.h"
#include "compiler/Session.h"
#include "compiler/Signature.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/host/ThreadPool.h"
#include "runtime/jit/CacheKey.h"
#include "runtime/jit/DiskCache.h"
#include "runtime/jit/Errors.h"
#include "runtime/jit/TypeKeys.h"
#include "targets/Driver.h"
#include "targets/amdgpu/AmdgpuTarget.h"
#include "targets/host/HostJit.h"
#include "targets/nvptx/NvptxTarget.h"

namespace kjit::jit {

// ---- the process's shared state ----------------------------------------------------

JitRuntime::JitRuntime() : session_(std::make_shared<Session>()) {}
JitRuntime::~JitRuntime() = default;

HostJit &JitRuntime::hostJit() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!jit_) {
    std::string err;
    jit_ = HostJit::create(runtimeSymbols(), err);
    if (!jit_) throw internalError("kjit: cannot set up the host JIT: " + err);
  }
  return *jit_;
}

ThreadPool &JitRuntime::threadPool() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pool_) pool_ = std::make_unique<ThreadPool>(ThreadPool::defaultSize());
  return *pool_;
}

// ---- helpers -----------------------------------------------------------------------

namespace {

[[noreturn]] void failed(Context &ctx) {
  throw CompileFailure(ctx.diags.render(), ctx.sources, ctx.diags.diagnostics());
}

std::vector<const Type *> remap(TypeContext &tc, const std::vector<const Type *> &ts) {
  std::vector<const Type *> out;
  for (const Type *t : ts) out.push_back(sameTypeIn(tc, t));
  return out;
}

std::vector<std::pair<std::string, std::string>> typemapOf(const TypedProgram &prog) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &v : prog.entry->vars)
    if (v->type) out.emplace_back(v->name, v->type->str());
  return out;
}

std::string typedText(const TypedProgram &prog) {
  std::string s;
  for (const ir::Function *f : prog.functions) s += ir::print(*f);
  return s;
}

}  // namespace

JitFunction::JitFunction(JitRuntime &rt, std::shared_ptr<FunctionSource> source, JitOptions options)
    : rt_(rt), source_(std::move(source)), options_(options) {}

size_t JitFunction::cacheHits() const {
  size_t n = 0;
  for (const auto &c : host_.all()) n += c->fromCache;
  for (const auto &c : cpu_.all()) n += c->fromCache;
  for (const auto &c : cuda_) n += c->fromCache;
  return n;
}

std::string JitFunction::fingerprint() const {
  return dependencyFingerprint(rt_.session(), *source_);
}
std::string JitFunction::cacheFolder() const { return jit::cacheFolder(source_->filename); }

// A signature's types, in a result of their own; the argument count is
// checked against the function's parameters.
std::unique_ptr<CompileResult> JitFunction::parseEager(const std::string &signature) const {
  auto r = std::make_unique<CompileResult>();
  r->types = std::make_shared<TypeContext>();
  Signature s;
  std::string err;
  if (!parseSignature(*r->types, signature, s, err)) throw typeError("invalid signature: " + err);
  // kjitc's functions carry no parameter list; the typer checks the count there.
  if (!source_->paramNames.empty() && s.args.size() != paramCount())
    throw typeError(fmt::format("signature \"{}\" has {} arguments but {}() takes {}", signature,
                                s.args.size(), name(), paramCount()));
  r->args = s.args;
  r->ret = s.ret;
  r->key = keyOfTypes(s.args);
  r->signature = signature;
  return r;
}

// ---- @jit ------------------------------------------------------------------------------

CompileResult &JitFunction::hostMiss(const std::string &key) {
  if (CompileResult *c = host_.select(rt_.session(), key, Caller{name(), false})) return *c;
  TypeContext tc;
  return hostCompile(key, typesOfKey(rt_.session(), tc, key), nullptr);
}

CompileResult &JitFunction::hostCompileSignature(const std::string &signature) {
  std::unique_ptr<CompileResult> sig = parseEager(signature);
  return hostCompile(sig->key, sig->args, sig->ret);
}

CompileResult &JitFunction::hostDeclare(const std::string &signature) {
  CompileResult &c = hostCompileSignature(signature);
  host_.setEager();
  return c;
}

// Host code on disk (cache=True): the object file, its entry symbol, the
// return type's key, the typed IR and the signature. Cached code is named
// after its key, so that loading it in a later process cannot collide with
// code compiled there.
std::string JitFunction::hostCacheKey(const std::string &key, const Type *declaredRet,
                                      const char *kind) {
  CacheInputs in;
  in.function = name();
  in.fingerprint = fingerprint();
  in.argumentKey = key;
  in.declaredReturn = declaredRet ? declaredRet->str() : "";
  in.target = rt_.hostJit().targetDescription();
  in.options = fmt::format("{} boundscheck={} cuda-fastmath={} debug={}", kind,
                           options_.cpuBoundscheck, options_.cuda.fastmath, options_.cuda.debug);
  return cacheKey(in);
}

std::optional<CacheEntry> JitFunction::loadEntry(const std::string &ckey, size_t fields,
                                                 std::string &warning) const {
  std::string problem;
  DiskCache disk(cacheFolder());
  std::optional<CacheEntry> e = disk.load(ckey, &problem);
  if (e && e->fields.size() != fields) {
    problem = "of another layout";
    e.reset();
  }
  if (!problem.empty())
    warning = fmt::format("kjit: the cache entry of {}() at {} is {}: compiled again and rewritten",
                          name(), disk.pathOf(ckey), problem);
  return e;
}

bool JitFunction::loadHostCode(const std::string &ckey, CompileResult &c) {
  std::optional<CacheEntry> e = loadEntry(ckey, 5, c.cacheWarning);
  if (!e) return false;
  size_t p = 0;
  c.ret = typeOfKey(rt_.session(), *c.types, e->fields[2], p);
  CompiledCode code;
  std::string err;
  if (!c.ret || !rt_.hostJit().addObject(e->fields[0], e->fields[1], code, err)) return false;
  c.entrySymbol = e->fields[1];
  c.typedIR = e->fields[3];
  c.signature = e->fields[4];
  c.entry = reinterpret_cast<CompileResult::Entry>(code.entry);
  c.fromCache = true;
  return true;
}

void JitFunction::buildHostCode(Context &ctx, const TypedProgram &prog, const std::string &ckey,
                                bool cpuKernel, CompileResult &c) {
  HostBuild build;
  build.cpuKernel = cpuKernel;
  if (!ckey.empty()) build.moduleName = "kc" + ckey.substr(ckey.size() - 32);
  build.toObject = !ckey.empty();
  HostCode code;
  std::string err;
  if (!buildForHost(ctx, prog, rt_.hostJit(), build, code, err))
    throw internalError("kjit: internal compiler error in " + name() + ": " + err);
  if (!ckey.empty()) {
    CacheEntry entry;
    entry.fields = {code.object, code.symbol, keyOfType(c.ret), c.typedIR, c.signature};
    DiskCache(cacheFolder()).store(ckey, entry);  // best effort: a read-only folder only costs time
  }
  c.entry = reinterpret_cast<CompileResult::Entry>(code.entry);
  c.entrySymbol = code.symbol;
}

CompileResult &JitFunction::hostCompile(const std::string &key,
                                        const std::vector<const Type *> &argTypes,
                                        const Type *declaredRet) {
  std::lock_guard<std::mutex> lock(host_.compileMutex());
  if (CompileResult *c = host_.find(key)) return *c;
  auto c = std::make_unique<CompileResult>();
  c->key = key;
  c->types = std::make_shared<TypeContext>();
  c->args = remap(*c->types, argTypes);
  std::string ckey = options_.cache ? hostCacheKey(key, declaredRet, "host") : "";
  if (ckey.empty() || !loadHostCode(ckey, *c)) {
    Context ctx(rt_.sharedSession());
    const Type *declared = declaredRet ? sameTypeIn(ctx.types, declaredRet) : nullptr;
    TypedProgram prog = buildTypedProgram(ctx, source_, remap(ctx.types, argTypes), declared);
    if (!prog.entry) failed(ctx);
    c->ret = sameTypeIn(*c->types, prog.entry->returnType);
    c->signature = "(" + describeTypes(c->args) + ") -> " + c->ret->str();
    c->typedIR = typedText(prog);
    c->typemap = typemapOf(prog);
    buildHostCode(ctx, prog, ckey, false, *c);
  }
  c->measure();
  return *host_.add(std::move(c));
}

std::string JitFunction::inspectHost(const CompileResult &c, bool wantAsm) {
  Context ctx(rt_.sharedSession());
  TypedProgram prog = buildTypedProgram(ctx, source_, remap(ctx.types, c.args));
  std::string text, err;
  if (!prog.entry || !inspectForHost(ctx, prog, rt_.hostJit(), wantAsm, text, err)) return "";
  return text;
}

// ---- the CPU device ------------------------------------------------------------------

// The source with fastmath=True of @cuda.jit applied (every flag).
std::shared_ptr<FunctionSource> JitFunction::cudaSource() const {
  if (!options_.cuda.fastmath || source_->fastmath == FastMath::All) return source_;
  auto copy = std::make_shared<FunctionSource>(*source_);
  copy->fastmath = FastMath::All;
  return copy;
}

TypedProgram JitFunction::cudaProgram(Context &ctx, const std::vector<const Type *> &args,
                                      const Type *declaredRet, bool kernel) const {
  TypedProgram prog = buildTypedProgram(ctx, cudaSource(), args, declaredRet, Target::CUDA, kernel);
  prog.debug = options_.cuda.debug;
  return prog;
}

CompileResult &JitFunction::cpuKernelMiss(const std::string &key) {
  if (CompileResult *c = cpu_.select(rt_.session(), key, Caller{name(), true})) return *c;
  return cpuCompile(key);
}

CompileResult &JitFunction::cpuCompile(const std::string &key) {
  std::lock_guard<std::mutex> lock(cpu_.compileMutex());
  if (CompileResult *c = cpu_.find(key)) return *c;
  auto c = std::make_unique<CompileResult>();
  c->key = key;
  c->types = std::make_shared<TypeContext>();
  c->args = typesOfKey(rt_.session(), *c->types, key);
  std::string ckey = options_.cache ? hostCacheKey(key, nullptr, "cpu-device-kernel") : "";
  if (ckey.empty() || !loadHostCode(ckey, *c)) {
    c->ret = c->types->voidTy();
    Context ctx(rt_.sharedSession());
    ctx.checkBounds = options_.cpuBoundscheck;
    TypedProgram prog = cudaProgram(ctx, remap(ctx.types, c->args), nullptr, true);
    if (!prog.entry) failed(ctx);
    c->signature = "(" + describeTypes(c->args) + ")";
    c->typedIR = typedText(prog);
    c->typemap = typemapOf(prog);
    c->warnings = ctx.diags.render();
    buildHostCode(ctx, prog, ckey, true, *c);
  }
  // The entry symbol of the CPU device's code is its CpuKernelInfo.
  c->cpuKernel = reinterpret_cast<const CpuKernelInfo *>(c->entry);
  c->entry = nullptr;
  c->measure();
  return *cpu_.add(std::move(c));
}

void JitFunction::cpuDeclare(const std::string &signature) {
  cpuCompile(parseEager(signature)->key);
  cpu_.setEager();
}

std::string JitFunction::inspectCpuKernel(const std::string &key, bool wantAsm) {
  Context ctx(rt_.sharedSession());
  TypedProgram prog = cudaProgram(ctx, typesOfKey(rt_.session(), ctx.types, key), nullptr, true);
  if (!prog.entry) failed(ctx);
  std::string out, err;
  if (!inspectForHost(ctx, prog, rt_.hostJit(), wantAsm, out, err, true))
    throw internalError("kjit: " + err);
  return out;
}

// ---- CUDA ------------------------------------------------------------------------------

std::string JitFunction::cudaOptionsText(int cc) const {
  const CudaOptions &o = options_.cuda;
  return fmt::format(
      "sm_{} fastmath={} lineinfo={} debug={} maxregs={} bounds={},{},{} source-fastmath={}", cc,
      o.fastmath, o.lineinfo, o.debug, o.maxRegisters, o.maxThreads, o.minBlocks, o.maxClusterRank,
      source_->fastmath);
}

// Whether `t` is a tuple of nothing ((), ((), ())): NVPTX cannot take a
// parameter of no bytes (LLVM aborts: "Empty parameter types are not
// supported"). A kernel has no parameter for such an argument
// (LoweringCuda.cpp); a device function compiled on its own would need one,
// so it is refused before LLVM sees it. An empty tuple beside values has
// bytes, and is a parameter like any aggregate.
static bool holdsNothing(const Type *t) {
  if (!t->isTuple()) return false;
  for (const Type *e : t->elements())
    if (!holdsNothing(e)) return false;
  return true;
}

std::unique_ptr<CompileResult> JitFunction::typeForGpu(Context &ctx,
                                                       const std::vector<const Type *> &args,
                                                       const Type *ret, bool device,
                                                       TypedProgram &prog) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (device && holdsNothing(args[i]))
      throw typeError(fmt::format(
          "device function '{}': argument {} ({}) is an empty tuple, which a CUDA device "
          "function compiled on its own cannot take as a parameter; leave the argument out",
          name(), i + 1, args[i]->str()));
  const Type *declared = ret ? sameTypeIn(ctx.types, ret) : nullptr;
  prog = cudaProgram(ctx, remap(ctx.types, args), declared, !device);
  if (!prog.entry) failed(ctx);
  auto c = std::make_unique<CompileResult>();
  c->types = std::make_shared<TypeContext>();
  c->args = remap(*c->types, args);
  c->ret = sameTypeIn(*c->types, prog.entry->returnType);
  c->key = keyOfTypes(c->args);
  c->typedIR = typedText(prog);
  c->typemap = typemapOf(prog);
  return c;
}

std::unique_ptr<CompileResult> JitFunction::compileCuda(const std::vector<const Type *> &args,
                                                        const Type *ret, bool device, int cc,
                                                        std::string *llvmText) {
  Context ctx(rt_.sharedSession());
  ctx.targetCc = cc;
  TypedProgram prog;
  std::unique_ptr<CompileResult> c = typeForGpu(ctx, args, ret, device, prog);
  c->cc = cc;
  PtxOptions po;
  po.ccMajor = cc / 10;
  po.ccMinor = cc % 10;
  po.fastmath = options_.cuda.fastmath || source_->fastmath;
  po.maxRegisters = options_.cuda.maxRegisters;
  po.maxThreadsPerBlock = options_.cuda.maxThreads;
  po.minBlocksPerSM = options_.cuda.minBlocks;
  po.maxClusterRank = options_.cuda.maxClusterRank;
  po.archSpecific = ctx.archSpecific;
  std::string err;
  if (!buildForCuda(ctx, prog, po, options_.cuda.lineinfo, c->code, c->entrySymbol, llvmText, err))
    throw internalError("kjit: " + err);
  c->signature = c->ret->str() + "(" + describeTypes(c->args) + ")";
  c->warnings = ctx.diags.render();  // the compile succeeded: warnings only
  return c;
}

std::unique_ptr<CompileResult> JitFunction::amdgpuCompile(const std::string &signature, bool device,
                                                          const std::string &arch,
                                                          std::string *assembly) {
  const AmdgpuProcessor *proc = amdgpuProcessor(arch);
  if (!proc) throw typeError(unknownProcessorMessage(arch));
  std::unique_ptr<CompileResult> sig = parseEager(signature);
  Context ctx(rt_.sharedSession());
  ctx.warpSize = proc->wavefront;  // (typing follows the wavefront)
  ctx.amdgpu = true;
  ctx.amdgpuArch = proc->name;
  TypedProgram prog;
  std::unique_ptr<CompileResult> c = typeForGpu(ctx, sig->args, sig->ret, device, prog);
  AmdgpuOptions ao;
  ao.arch = arch;
  ao.fastmath = options_.cuda.fastmath || source_->fastmath;
  ao.maxThreadsPerBlock = options_.cuda.maxThreads;
  std::string err;
  if (!buildForAmdgpu(ctx, prog, ao, options_.cuda.lineinfo, c->code, c->entrySymbol, assembly,
                      nullptr, err))
    throw internalError("kjit: " + err);
  c->signature = signature;
  c->warnings = ctx.diags.render();
  return c;
}

CompileResult &JitFunction::cudaCompile(const std::string &signature, bool device, int cc) {
  std::lock_guard<std::mutex> lock(cudaMutex_);
  for (auto &c : cuda_)
    if (c->signature == signature && c->cc == cc) return *c;
  std::unique_ptr<CompileResult> sig = parseEager(signature);
  std::unique_ptr<CompileResult> c = compileCuda(sig->args, sig->ret, device, cc, nullptr);
  c->signature = signature;  // listed as the user wrote it
  cuda_.push_back(std::move(c));
  return *cuda_.back();
}

std::string JitFunction::cudaLLVM(const std::string &signature, bool device, int cc) {
  std::unique_ptr<CompileResult> sig = parseEager(signature);
  std::string text;
  compileCuda(sig->args, sig->ret, device, cc, &text);
  return text;
}

void JitFunction::cudaDeclare(const std::string &signature) {
  std::unique_ptr<CompileResult> d = parseEager(signature);
  if (!cudaDeclared_.find(d->key)) {
    d->signature = "(" + describeTypes(d->args) + ")";
    cudaDeclared_.add(std::move(d));
  }
  cudaDeclared_.setEager();
}

std::string JitFunction::cudaResolve(const std::string &key) {
  if (!cudaDeclared_.eager()) return key;
  return cudaDeclared_.select(rt_.session(), key, Caller{name(), true})->key;
}

bool JitFunction::cudaHas(const std::string &key, int cc) {
  std::lock_guard<std::mutex> lock(cudaMutex_);
  for (auto &c : cuda_)
    if (c->key == key && c->cc == cc) return true;
  return false;
}

CompileResult &JitFunction::cudaKernelFor(const std::string &key, int cc) {
  std::lock_guard<std::mutex> lock(cudaMutex_);
  for (auto &c : cuda_)
    if (c->key == key && c->cc == cc) return *c;
  TypeContext tc;
  std::vector<const Type *> args = typesOfKey(rt_.session(), tc, key);
  CacheInputs in;
  DiskCache disk(cacheFolder());
  std::string cacheWarning;
  if (options_.cache) {
    in.function = name();
    in.fingerprint = fingerprint();
    in.argumentKey = key;
    in.target = fmt::format("cuda sm_{}", cc);
    in.options = cudaOptionsText(cc);
    if (std::optional<CacheEntry> e = loadEntry(cacheKey(in), 4, cacheWarning)) {
      auto c = std::make_unique<CompileResult>();
      c->types = std::make_shared<TypeContext>();
      c->args = remap(*c->types, args);
      c->ret = c->types->voidTy();
      c->key = key;
      c->cc = cc;
      c->code = e->fields[0];
      c->entrySymbol = e->fields[1];
      c->signature = e->fields[2];
      c->typedIR = e->fields[3];
      c->fromCache = true;
      cuda_.push_back(std::move(c));
      return *cuda_.back();
    }
  }
  std::unique_ptr<CompileResult> c = compileCuda(args, nullptr, false, cc, nullptr);
  c->cacheWarning = cacheWarning;
  if (options_.cache) {
    CacheEntry entry;
    entry.fields = {c->code, c->entrySymbol, c->signature, c->typedIR};
    disk.store(cacheKey(in), entry);
  }
  cuda_.push_back(std::move(c));
  return *cuda_.back();
}

}  // namespace kjit::jit
