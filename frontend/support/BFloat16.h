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

namespace kjit::f16 {

// float64 -> float16 bits, rounded once to nearest even (IEEE 754; NumPy's
// astype gives the same); NaN stays a quiet NaN.
inline uint16_t fromDouble(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  const uint16_t sign = uint16_t((b >> 48) & 0x8000);
  const int exp = int((b >> 52) & 0x7ff);
  const uint64_t man = b & ((uint64_t(1) << 52) - 1);
  if (exp == 0x7ff)  // inf, or NaN (quiet, the payload's top bits kept)
    return uint16_t(sign | 0x7c00 | (man ? 0x200 | (man >> 42) : 0));
  const int e = exp - 1023 + 15;  // float16's biased exponent
  if (e >= 31) return uint16_t(sign | 0x7c00);
  auto round = [](uint64_t q, uint64_t rest, int dropped) {
    const uint64_t half = uint64_t(1) << (dropped - 1);
    return rest > half || (rest == half && (q & 1)) ? q + 1 : q;
  };
  if (e <= 0) {  // a float16 subnormal (or zero): units of 2**-24
    if (e < -10) return sign;
    const uint64_t full = man | (uint64_t(1) << 52);
    const int dropped = 43 - e;
    const uint64_t q = full >> dropped, rest = full & ((uint64_t(1) << dropped) - 1);
    return uint16_t(sign | round(q, rest, dropped));  // 0x400 is the smallest normal
  }
  const uint64_t h = (uint64_t(e) << 10) | (man >> 42);  // a carry rounds into the exponent
  return uint16_t(sign | round(h, man & ((uint64_t(1) << 42) - 1), 42));
}

inline double toDouble(uint16_t h) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 31) return m ? std::nan("") : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(double(m), -24);
  return sign * std::ldexp(1.0 + m / 1024.0, e - 15);
}

}  // namespace kjit::f16

namespace kjit::fp8 {

// float8_e4m3fn (e5m2 false) or float8_e5m2 bits -> float, exactly.
inline float toFloat(uint8_t b, bool e5m2) {
  const int man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const int e = (b >> man) & ((1 << (7 - man)) - 1), m = b & ((1 << man) - 1);
  const float sign = (b & 0x80) ? -1.0f : 1.0f;
  if (e5m2 && e == 31) return m ? std::nanf("") : sign * INFINITY;
  if (!e5m2 && (b & 0x7f) == 0x7f) return std::nanf("");
  if (e == 0) return sign * std::ldexp(float(m), 1 - bias - man);
  return sign * std::ldexp(1.0f + float(m) / float(1 << man), e - bias);
}

// double -> 8-bit float bits: to nearest even, saturated to the largest
// finite value (PTX's cvt.rn.satfinite); NaN -> 0x7f.
inline uint8_t fromDouble(double d, bool e5m2) {
  const int man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const double largest = e5m2 ? 57344.0 : 448.0;
  if (std::isnan(d)) return 0x7f;
  const uint8_t sign = std::signbit(d) ? 0x80 : 0;
  const double x = std::fabs(d);
  if (x >= largest) return uint8_t(sign | (e5m2 ? 0x7b : 0x7e));
  const double minNormal = std::ldexp(1.0, 1 - bias);
  if (x < minNormal)  // subnormal: units of 2**(1 - bias - man), ties to even
    return uint8_t(sign | int(std::nearbyint(std::ldexp(x, bias + man - 1))));
  int e;
  const double f = std::frexp(x, &e);                 // x = f * 2**e, f in [0.5, 1)
  double q = std::nearbyint(std::ldexp(f, man + 1));  // 1.m in units of 2**-man
  if (q >= double(1 << (man + 1))) {
    q /= 2;
    ++e;
  }
  const int biased = e - 1 + bias;
  return uint8_t(sign | (biased << man) | (int(q) - (1 << man)));
}

}  // namespace kjit::fp8
