#include "compiler/CacheKey.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <set>

#include "compiler/Context.h"
#include "compiler/JitClass.h"
#include "compiler/TyperImpl.h"
#include "frontend/SourceMap.h"

namespace kjit {

namespace {

void collectNames(const ast::Node *n, std::set<std::string> &out) {
  if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) out.insert(name->name);
  ast::forEachChild(n, [&](const ast::Node *c) { collectNames(c, out); });
}

std::string describe(const Session &session, const GlobalValue &g, std::set<uint64_t> &visited);

void fingerprint(const Session &session, const FunctionSource &fn, std::set<uint64_t> &visited,
                 std::string &out) {
  out += fmt::format("fn {} {}:{} fastmath={} boundscheck={} parallel={} numpy_errors={}\n",
                     fn.name, fn.filename, fn.firstLine, fn.fastmath, fn.boundscheck, fn.parallel,
                     fn.numpyErrors);
  out += fn.text;
  out += "\n";
  if (fn.sourceMap) out += fn.sourceMap->fingerprint();
  Context ctx;  // only to parse
  ParseOptions opts;
  opts.onlyFunction = fn.name;
  opts.lambdas = fn.name == "<lambda>";
  opts.sourceMap = fn.sourceMap.get();
  ast::Module m = ctx.parse(fn.filename, fn.text, fn.firstLine, opts);
  std::set<std::string> names;  // sorted: the text is deterministic
  for (const ast::FunctionDef *f : m.functions) {
    // The names it reads as globals: not its parameters and locals (a
    // global of the same name, a device array say, is not part of it).
    std::set<std::string> read, bound;
    collectNames(f, read);
    for (const ast::Param &p : f->params) bound.insert(p.name);
    typing::collectLocals(f->body, bound);
    for (const std::string &n : read)
      if (!bound.count(n)) names.insert(n);
  }
  for (const std::string &n : names) {
    if (!fn.lookup) break;
    std::optional<GlobalValue> g = fn.lookup(n);
    out += n + "=" + (g ? describe(session, *g, visited) : std::string("<undefined>")) + "\n";
  }
}

std::string describe(const Session &session, const GlobalValue &g, std::set<uint64_t> &visited) {
  using K = GlobalValue::Kind;
  switch (g.kind) {
  case K::None: return "None";
  case K::Bool: return fmt::format("bool {}", g.i);
  case K::Int: return fmt::format("int {}{}", g.i, g.isUnsigned ? "u" : "");
  case K::Float: return fmt::format("float {}", g.f);
  case K::Complex: return fmt::format("complex {} {}", g.f, g.im);
  case K::String: return fmt::format("str {:?}", g.name);
  case K::Tuple: {
    std::string s = "tuple(";
    for (const GlobalValue &e : g.elems) s += describe(session, e, visited) + ",";
    return s + ")";
  }
  case K::Array: return fmt::format("array {} {}", g.name, hashHex(g.bytes));
  case K::DeviceArray:  // the address is compiled in
    return fmt::format("device array {} {} {} {:#x} {}", g.name, fmt::join(g.shape, ","),
                       fmt::join(g.strides, ","), uint64_t(g.i), g.isUnsigned);
  case K::EnumClass:
  case K::EnumMember: {
    std::string s = fmt::format("enum {} {} {} (", int(g.kind), g.name, g.i);
    for (const GlobalValue &e : g.elems) s += e.name + "=" + describe(session, e, visited) + ",";
    return s + ")";
  }
  case K::JitFunction: {
    if (!g.fn) return "jit ?";
    if (!visited.insert(g.fn->identity).second) return "jit " + g.fn->name + " (seen)";
    std::string inner;
    fingerprint(session, *g.fn, visited, inner);
    for (const std::string &sig : g.signatures) inner += "\nsig " + sig;
    return "jit " + hashHex(inner);
  }
  case K::JitClass: {
    // The class's fields and every function that implements it: a cached
    // function that uses the class is stale once any of them changes.
    std::shared_ptr<const JitClassInfo> info = session.findJitClass(g.name);
    if (!info) return "jitclass ?";
    std::string inner =
        fmt::format("jitclass {} ({})", info->name, fmt::join(info->fieldTypes, ","));
    for (size_t i = 0; i < info->fieldNames.size(); ++i) inner += " " + info->fieldNames[i];
    auto add = [&](const std::string &what, const std::shared_ptr<FunctionSource> &fn) {
      if (!fn) return;
      inner += "\n" + what + " ";
      if (!visited.insert(fn->identity).second) {
        inner += fn->name + " (seen)";
        return;
      }
      fingerprint(session, *fn, visited, inner);
    };
    add("ctor", info->ctor);
    for (const auto *table : {&info->methods, &info->getters, &info->setters, &info->statics})
      for (const auto &[name, fn] : *table) add(name, fn);
    // (The id's counter differs between processes: the name and the
    // functions' text are what the cache keys on.)
    return "jitclass " + hashHex(inner);
  }
  default: return fmt::format("{} {}", int(g.kind), g.name);
  }
}

}  // namespace

std::string dependencyFingerprint(const Session &session, const FunctionSource &fn) {
  std::set<uint64_t> visited{fn.identity};
  std::string out;
  fingerprint(session, fn, visited, out);
  return out;
}

uint32_t FastMath::fromName(const std::string &n) {
  if (n == "reassoc") return Reassoc;
  if (n == "nnan") return NoNaNs;
  if (n == "ninf") return NoInfs;
  if (n == "nsz") return NoSignedZeros;
  if (n == "arcp") return AllowReciprocal;
  if (n == "contract") return Contract;
  if (n == "afn") return ApproxFunc;
  if (n == "fast") return All;
  return 0;
}

}  // namespace kjit
