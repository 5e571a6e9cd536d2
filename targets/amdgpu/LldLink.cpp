// LldLink.cpp - the AMDGPU object to a code object with lld's ELF linker,
// called as a library. The object is an anonymous in-memory file
// (memfd_create) that lld reads through /proc/self/fd; lld replaces its
// output file by name, so the code object is written to a private folder in
// /dev/shm (memory; $TMPDIR where there is none), read back and removed.
#include <fcntl.h>
#include <fmt/format.h>
#include <lld/Common/Driver.h>
#include <llvm/Support/raw_ostream.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>

#include "targets/amdgpu/AmdgpuTarget.h"

LLD_HAS_DRIVER(elf)

namespace kjit {

namespace {

// An anonymous in-memory file, closed with the object.
struct MemFile {
  int fd = -1;
  explicit MemFile(const char *name) { fd = ::memfd_create(name, MFD_CLOEXEC); }
  ~MemFile() {
    if (fd >= 0) ::close(fd);
  }
  MemFile(const MemFile &) = delete;
  MemFile &operator=(const MemFile &) = delete;
  std::string path() const { return fmt::format("/proc/self/fd/{}", fd); }
  bool write(const std::string &bytes) const {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }
};

// A private folder (mode 0700) for lld's output, removed with the object.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    struct stat st;
    std::string base = ::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "";
    if (base.empty()) {
      const char *t = std::getenv("TMPDIR");
      base = t && *t ? t : "/tmp";
    }
    std::string templ = base + "/kjit-hsaco-XXXXXX";
    if (::mkdtemp(templ.data())) path = templ;
  }
  ~ScratchDir() {
    if (path.empty()) return;
    ::unlink((path + "/k.hsaco").c_str());
    ::rmdir(path.c_str());
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
};

}  // namespace

bool linkCodeObject(const std::string &object, std::string &hsaco, std::string &error) {
  MemFile in("kjit-amdgpu.o");
  ScratchDir dir;
  if (in.fd < 0 || !in.write(object) || dir.path.empty()) {
    error = fmt::format("cannot make the files of the AMDGPU link: {}", std::strerror(errno));
    return false;
  }
  std::string inPath = in.path(), outPath = dir.path + "/k.hsaco";
  // lld keeps global state: one link at a time.
  static std::mutex lock;
  std::lock_guard<std::mutex> hold(lock);
  // One thread: one small object needs none, and lld would otherwise leave
  // a pool of worker threads in the user's process.
  const char *args[] = {"ld.lld", "-shared",       "--no-undefined", "--threads=1",
                        "-o",     outPath.c_str(), inPath.c_str()};
  std::string messages;
  llvm::raw_string_ostream log(messages);
  lld::Result r = lld::lldMain(args, log, log, {{lld::Gnu, &lld::elf::link}});
  if (r.retCode != 0) {
    error = "lld could not link the AMDGPU code object: " + messages;
    return false;
  }
  std::ifstream f(outPath, std::ios::binary);
  hsaco.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (hsaco.empty()) {
    error = "lld wrote no AMDGPU code object";
    return false;
  }
  return true;
}

}  // namespace kjit
