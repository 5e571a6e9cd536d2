// ErrorRecord.h - reading back a GPU module's error record (KernelAbi.h's
// abi::ErrorRecordField), for every GPU runtime (runtime/cuda, runtime/hip):
// the module's string tables and the exception a record describes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kjit::abi {

// A module's table (`kjit_error_files`, `kjit_error_raises`): strings, each
// ended by a NUL byte.
std::vector<std::string> splitNulTable(const std::string &bytes);

// `kjit_error_raises`' entries, "Class:message", as (class, message).
std::vector<std::pair<std::string, std::string>> raiseTable(const std::string &bytes);

// What a record says: the exception's class and message, and where.
struct RecordedError {
  std::string excClass, message, file;
  int line = 0;
  int32_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};

// The exception of a complete record written by kernel `kernel` of a
// module with those tables.
RecordedError decodeErrorRecord(const volatile uint32_t *rec, const std::string &kernel,
                                const std::vector<std::string> &files,
                                const std::vector<std::pair<std::string, std::string>> &raises);

// What the GPU runtimes throw at a synchronisation for a record: the
// exception's class ("IndexError", or what the raise named), its message,
// the kernel, and where.
class KernelRaised : public std::runtime_error {
 public:
  KernelRaised(const RecordedError &r, std::string kernelName)
      : std::runtime_error(r.message),
        excClass(r.excClass),
        message(r.message),
        kernel(std::move(kernelName)),
        file(r.file),
        line(r.line) {
    for (unsigned a = 0; a < 3; ++a) {
      thread[a] = r.thread[a];
      block[a] = r.block[a];
    }
  }
  std::string excClass, message;
  std::string kernel, file;
  int line = 0;
  int32_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};

}  // namespace kjit::abi
