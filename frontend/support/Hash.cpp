#include "frontend/support/Hash.h"

#include <fmt/format.h>

#include <cstdint>

namespace kjit {

std::string hashHex(const std::string &data) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : data) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ (c + 0x9e)) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

}  // namespace kjit
