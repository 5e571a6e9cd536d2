#include "runtime/jit/DiskCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "frontend/support/Hash.h"

namespace kjit {

namespace {

constexpr char kMagic[] = "KJITCACHE1\n";

void putU64(std::string &s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s += char((v >> (8 * i)) & 0xff);
}

bool getU64(const std::string &s, size_t &p, uint64_t &v) {
  if (p + 8 > s.size()) return false;
  v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(s[p + i])) << (8 * i);
  p += 8;
  return true;
}

bool makeDirs(const std::string &dir) {
  std::string cur;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      if (!cur.empty() && ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    if (i < dir.size()) cur += dir[i];
  }
  return true;
}

}  // namespace

std::string DiskCache::pathOf(const std::string &key) const { return dir_ + "/" + key + ".kjitc"; }

std::optional<CacheEntry> DiskCache::load(const std::string &key, std::string *problem) const {
  auto bad = [&](const char *why) -> std::optional<CacheEntry> {
    if (problem) *problem = why;
    return std::nullopt;
  };
  int fd = ::open(pathOf(key).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      ::close(fd);
      return bad("unreadable");
    }
    if (r == 0) break;
    data.append(buf, size_t(r));
  }
  ::close(fd);
  size_t m = sizeof(kMagic) - 1;
  if (data.size() < m || data.compare(0, m, kMagic) != 0)
    return bad(data.size() < m && std::string(kMagic).compare(0, data.size(), data) == 0
                   ? "truncated"
                   : "not a kjit cache entry");
  if (data.size() < m + 32 + 8) return bad("truncated");
  // The checksum covers everything before it.
  std::string body = data.substr(0, data.size() - 32);
  if (hashHex(body) != data.substr(data.size() - 32))
    return bad("corrupt or truncated (its checksum differs)");
  size_t p = m;
  uint64_t n;
  if (!getU64(body, p, n) || n > 64) return bad("corrupt");
  CacheEntry e;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t len;
    if (!getU64(body, p, len) || p + len > body.size()) return bad("corrupt");
    e.fields.push_back(body.substr(p, len));
    p += len;
  }
  if (p != body.size()) return bad("corrupt");
  return e;
}

bool DiskCache::store(const std::string &key, const CacheEntry &entry) const {
  if (!makeDirs(dir_)) return false;
  std::string body = kMagic;
  putU64(body, entry.fields.size());
  for (const std::string &f : entry.fields) {
    putU64(body, f.size());
    body += f;
  }
  body += hashHex(body);
  // POSIX calls: written in full and synced before the rename makes it
  // visible under its name.
  // (A name of this process and call: threads of one process, and other
  // processes, storing the same key at once each write their own.)
  static std::atomic<uint64_t> serial{0};
  std::string tmp =
      pathOf(key) + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(serial++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < body.size()) {
    ssize_t w = ::write(fd, body.data() + done, body.size() - done);
    if (w <= 0) {
      ::close(fd);
      std::remove(tmp.c_str());
      return false;
    }
    done += size_t(w);
  }
  bool ok = ::fsync(fd) == 0;
  ok &= ::close(fd) == 0;
  if (!ok) {
    std::remove(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), pathOf(key).c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace kjit
