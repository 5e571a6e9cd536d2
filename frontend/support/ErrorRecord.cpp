#include "frontend/support/ErrorRecord.h"

#include <fmt/format.h>

#include "frontend/support/KernelAbi.h"

namespace kjit::abi {

std::vector<std::string> splitNulTable(const std::string &bytes) {
  std::vector<std::string> out;
  for (size_t from = 0; from < bytes.size();) {
    size_t end = bytes.find('\0', from);
    if (end == std::string::npos || end == from) break;
    out.push_back(bytes.substr(from, end - from));
    from = end + 1;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> raiseTable(const std::string &bytes) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string &r : splitNulTable(bytes)) {
    size_t colon = r.find(':');
    out.emplace_back(r.substr(0, colon), colon == std::string::npos ? "" : r.substr(colon + 1));
  }
  return out;
}

RecordedError decodeErrorRecord(const volatile uint32_t *rec, const std::string &kernel,
                                const std::vector<std::string> &files,
                                const std::vector<std::pair<std::string, std::string>> &raises) {
  auto i64 = [&](unsigned at) {
    return int64_t(uint64_t(rec[at]) | (uint64_t(rec[at + 1]) << 32));
  };
  RecordedError e;
  uint32_t raise = rec[RecRaise];
  e.excClass = "IndexError";
  if (raise == 0) {
    e.message = fmt::format("index {} is out of bounds for axis {} with size {}", i64(RecIndex),
                            rec[RecAxis], i64(RecSize));
  } else if (raise <= raises.size()) {
    e.excClass = raises[raise - 1].first;
    e.message = raises[raise - 1].second;
  } else {
    e.excClass = "RuntimeError";
    e.message = fmt::format("kernel '{}' recorded exception {}, which its module does not name",
                            kernel, raise);
  }
  uint32_t file = rec[RecFile];
  e.file = file >= 1 && file <= files.size() ? files[file - 1] : "";
  e.line = int(rec[RecLine]);
  for (unsigned a = 0; a < 3; ++a) {
    e.thread[a] = int32_t(rec[RecThread + a]);
    e.block[a] = int32_t(rec[RecBlock + a]);
  }
  return e;
}

}  // namespace kjit::abi
