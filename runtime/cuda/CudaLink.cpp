// CudaLink.cpp - linking external code with kernels (cuda.declare_device's
// link=): the registry of each declared function's code, the driver's linker,
// and NVRTC (loaded with dlopen when CUDA C++ is first linked; never a build
// dependency) for CUDA C++.
#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cstdlib>
#include <set>

#include "runtime/cuda/CudaRuntime.h"

namespace kjit::cuda {

namespace {

// CUjit_option and CUjitInputType values.
enum : int { kInfoLog = 3, kInfoLogSize = 4, kErrorLog = 5, kErrorLogSize = 6 };
enum : int { kCubin = 0, kPtx = 1, kFatbin = 2, kObject = 3, kLibrary = 4 };

// NVRTC's entry points (nvrtc.h), as the CUDA driver's are loaded.
using Program = struct NvrtcProgram *;
struct Nvrtc {
  int (*CreateProgram)(Program *, const char *, const char *, int, const char *const *,
                       const char *const *) = nullptr;
  int (*CompileProgram)(Program, int, const char *const *) = nullptr;
  int (*GetPTXSize)(Program, size_t *) = nullptr;
  int (*GetPTX)(Program, char *) = nullptr;
  int (*GetProgramLogSize)(Program, size_t *) = nullptr;
  int (*GetProgramLog)(Program, char *) = nullptr;
  int (*DestroyProgram)(Program *) = nullptr;
  const char *(*GetErrorString)(int) = nullptr;
  std::string why;  // empty when loaded
};

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string cudaHome() {
  for (const char *v : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *h = std::getenv(v); h && *h) return h;
  return "/usr/local/cuda";
}

const Nvrtc &nvrtc() {
  static const Nvrtc api = [] {
    Nvrtc n;
    std::vector<std::string> names;
    if (const char *p = std::getenv("KJIT_NVRTC"); p && *p) names.push_back(p);
    for (const char *v : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}) {
      names.push_back(v);
      names.push_back(cudaHome() + "/lib64/" + v);
    }
    void *lib = nullptr;
    for (const std::string &name : names)
      if ((lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
      n.why =
          "NVRTC (libnvrtc.so), which compiles CUDA C++, was not found; install the CUDA "
          "toolkit's NVRTC, set CUDA_HOME or KJIT_NVRTC, or link PTX instead";
      return n;
    }
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && n.why.empty()) n.why = fmt::format("NVRTC has no {}", name);
    };
    sym(n.CreateProgram, "nvrtcCreateProgram");
    sym(n.CompileProgram, "nvrtcCompileProgram");
    sym(n.GetPTXSize, "nvrtcGetPTXSize");
    sym(n.GetPTX, "nvrtcGetPTX");
    sym(n.GetProgramLogSize, "nvrtcGetProgramLogSize");
    sym(n.GetProgramLog, "nvrtcGetProgramLog");
    sym(n.DestroyProgram, "nvrtcDestroyProgram");
    sym(n.GetErrorString, "nvrtcGetErrorString");
    return n;
  }();
  return api;
}

// CUDA C++ to relocatable PTX for compute capability `cc` (major * 10 + minor).
std::string compileCuda(const Runtime::LinkInput &in, int cc) {
  const Nvrtc &n = nvrtc();
  if (!n.why.empty())
    throw Error(fmt::format("cannot compile the CUDA C++ source '{}': {}", in.name, n.why),
                "nvrtcCreateProgram", 0, "NVRTC_NOT_FOUND");
  Program p = nullptr;
  int r = n.CreateProgram(&p, in.data.c_str(), in.name.c_str(), 0, nullptr, nullptr);
  if (r != 0)
    throw Error(fmt::format("nvrtcCreateProgram failed for '{}': {}", in.name, n.GetErrorString(r)),
                "nvrtcCreateProgram", r, n.GetErrorString(r));
  std::vector<std::string> opts = {fmt::format("--gpu-architecture=compute_{}", cc), "-rdc=true"};
  if (exists(cudaHome() + "/include")) opts.push_back("-I" + cudaHome() + "/include");
  std::vector<const char *> argv;
  for (const std::string &o : opts) argv.push_back(o.c_str());
  r = n.CompileProgram(p, int(argv.size()), argv.data());
  size_t size = 0;
  std::string out;
  if (r != 0) {
    n.GetProgramLogSize(p, &size);
    out.resize(size);
    n.GetProgramLog(p, out.data());
    n.DestroyProgram(&p);
    throw Error(fmt::format("NVRTC could not compile '{}': {}\n{}", in.name, n.GetErrorString(r),
                            out.c_str()),
                "nvrtcCompileProgram", r, n.GetErrorString(r));
  }
  n.GetPTXSize(p, &size);
  out.resize(size);
  n.GetPTX(p, out.data());
  n.DestroyProgram(&p);
  if (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

// The names of the functions that the PTX declares `.extern .func`.
std::set<std::string> externFunctions(const std::string &ptx) {
  std::set<std::string> out;
  const std::string mark = ".extern .func";
  for (size_t at = ptx.find(mark); at != std::string::npos; at = ptx.find(mark, at + 1)) {
    size_t i = at + mark.size();
    auto skipSpace = [&]() {
      while (i < ptx.size() && isspace(static_cast<unsigned char>(ptx[i]))) ++i;
    };
    skipSpace();
    if (i < ptx.size() && ptx[i] == '(') {  // the return parameter
      i = ptx.find(')', i);
      if (i == std::string::npos) break;
      ++i;
      skipSpace();
    }
    size_t start = i;
    while (i < ptx.size() && (isalnum(static_cast<unsigned char>(ptx[i])) || ptx[i] == '_' ||
                              ptx[i] == '$' || ptx[i] == '.'))
      ++i;
    if (i > start) out.insert(ptx.substr(start, i - start));
  }
  return out;
}

}  // namespace

void Runtime::registerLink(const std::string &symbol, std::vector<LinkInput> inputs) {
  std::lock_guard<std::mutex> lock(linkMutex_);
  for (auto &[s, in] : links_)
    if (s == symbol) {
      in = std::move(inputs);
      return;
    }
  links_.emplace_back(symbol, std::move(inputs));
}

std::string Runtime::linkExternals(const std::string &ptx, const std::string &kernelName) {
  std::vector<LinkInput> inputs;
  {
    std::lock_guard<std::mutex> lock(linkMutex_);
    std::set<std::string> called = externFunctions(ptx);
    std::set<std::pair<std::string, std::string>> seen;  // (kind, data): each input once
    for (const auto &[symbol, in] : links_) {
      if (!called.count(symbol)) continue;
      for (const LinkInput &x : in)
        if (seen.emplace(x.kind, x.data).second) inputs.push_back(x);
    }
  }
  if (inputs.empty()) return ptx;
  activate();
  const DeviceInfo &dev = info(current_);
  int cc = dev.ccMajor * 10 + dev.ccMinor;
  char infoLog[8192] = {0}, errLog[8192] = {0};
  int opts[] = {kInfoLog, kInfoLogSize, kErrorLog, kErrorLogSize};
  void *vals[] = {infoLog, reinterpret_cast<void *>(uintptr_t(sizeof infoLog)), errLog,
                  reinterpret_cast<void *>(uintptr_t(sizeof errLog))};
  CUlinkState link = nullptr;
  check(api_.LinkCreate(4, opts, vals, &link), "cuLinkCreate");
  struct Destroy {
    const Api &api;
    CUlinkState s;
    ~Destroy() { api.LinkDestroy(s); }
  } destroy{api_, link};
  auto add = [&](int kind, const std::string &data, const std::string &name, bool text) {
    CUresult r = api_.LinkAddData(link, kind, const_cast<char *>(data.c_str()),
                                  data.size() + (text ? 1 : 0), name.c_str(), 0, nullptr, nullptr);
    if (r != 0) {
      std::string n = errorName(r);
      throw Error(fmt::format("linking '{}' with kernel '{}' failed: {}\nJIT log:\n{}{}", name,
                              kernelName, n, errLog, infoLog),
                  "cuLinkAddData", r, n);
    }
  };
  add(kPtx, ptx, kernelName, true);
  for (const LinkInput &in : inputs) {
    if (in.kind == "ptx")
      add(kPtx, in.data, in.name, true);
    else if (in.kind == "cu")
      add(kPtx, compileCuda(in, cc), in.name, true);
    else if (in.kind == "cubin")
      add(kCubin, in.data, in.name, false);
    else if (in.kind == "fatbin")
      add(kFatbin, in.data, in.name, false);
    else if (in.kind == "o")
      add(kObject, in.data, in.name, false);
    else if (in.kind == "a")
      add(kLibrary, in.data, in.name, false);
    else
      throw Error(fmt::format("cannot link '{}' with kernel '{}': kjit links PTX, CUDA C++, "
                              "cubin, fatbin, object and archive files, not '{}'",
                              in.name, kernelName, in.kind),
                  "cuLinkAddData", 0, "CUDA_ERROR_NOT_SUPPORTED");
  }
  void *cubin = nullptr;
  size_t size = 0;
  CUresult r = api_.LinkComplete(link, &cubin, &size);
  if (r != 0) {
    std::string n = errorName(r);
    throw Error(fmt::format("linking kernel '{}' with its external code failed: {}\nJIT log:\n{}{}",
                            kernelName, n, errLog, infoLog),
                "cuLinkComplete", r, n);
  }
  return std::string(static_cast<const char *>(cubin), size);
}

}  // namespace kjit::cuda
