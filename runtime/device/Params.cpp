#include "runtime/device/Params.h"

#include <stdexcept>

namespace kjit::device {

unsigned char *ParamPacker::largeValue(size_t bytes) {
  size_t n = (bytes + 7) / 8 + 2;  // (room for a target's padding at the end)
  large_.emplace_back(new uint64_t[n]());
  return reinterpret_cast<unsigned char *>(large_.back().get());
}

void ParamPacker::tooMany() { throw std::length_error("a kernel launch with too many parameters"); }

}  // namespace kjit::device
