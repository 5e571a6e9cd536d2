// BFloat16.h - bfloat16 bits on the host: float32's sign and exponent with 7
// stored fraction bits, the upper half of a float32. The runtime's rounding
// functions (HostRuntime.cpp), the binding's scalar arguments and results,
// and the host conversions of kjit.bf16 share these; needs only the C++
// library.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace kjit::bf16 {

// float32 -> bfloat16, to nearest even; a NaN stays a quiet NaN with its sign.
inline uint16_t fromFloat(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  if ((b & 0x7fffffffu) > 0x7f800000u) return uint16_t((b >> 16) | 0x40);
  return uint16_t((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

// float64 -> bfloat16 rounded once: to float32 rounding to odd (exact
// values as they are, others truncated towards zero with the last bit set),
// which then rounds to nearest even as the float64 itself would.
inline uint16_t fromDouble(double d) {
  float f = float(d);
  if (!std::isnan(d) && double(f) != d) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    if (std::fabs(double(f)) > std::fabs(d)) --b;  // towards zero (inf -> the largest float)
    b |= 1u;
    std::memcpy(&f, &b, sizeof f);
  }
  return fromFloat(f);
}

inline float toFloat(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

}  // namespace kjit::bf16
