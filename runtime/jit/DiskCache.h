// DiskCache.h - compiled code on disk (cache=True).
//
// One file per key: a header, length-prefixed fields and a checksum of all
// of it. Writes go to a temporary file in the same folder and are renamed
// into place (atomic on POSIX), so a reader never sees half a file; a file
// that does not verify is ignored (and replaced by the next store): load()
// says why, for the caller's warning.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kjit {

struct CacheEntry {
  std::vector<std::string> fields;  // meaning is the caller's
};

class DiskCache {
 public:
  explicit DiskCache(std::string dir) : dir_(std::move(dir)) {}
  // The entry, or nothing: no file (`problem` left empty), or a file that
  // does not verify (`problem` says how: "truncated", "corrupt", ...).
  std::optional<CacheEntry> load(const std::string &key, std::string *problem = nullptr) const;
  // False (and nothing written) when the folder cannot be written.
  bool store(const std::string &key, const CacheEntry &entry) const;
  std::string pathOf(const std::string &key) const;

 private:
  std::string dir_;
};

}  // namespace kjit
