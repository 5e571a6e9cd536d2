// CpuMatrix.cpp - see CpuMatrix.h.
#include "runtime/host/CpuMatrix.h"

#include <cmath>
#include <cstring>

#include "frontend/support/BFloat16.h"

namespace kjit {

namespace {

float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const int exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ff;
  float f;
  if (exp == 0) {  // zero or subnormal: man * 2**-24
    f = std::ldexp(float(man), -24);
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    b |= sign;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  uint32_t b = exp == 31 ? sign | 0x7f800000u | (man << 13)
                         : sign | (uint32_t(exp - 15 + 127) << 23) | (man << 13);
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// Element j of a lane's 16-bit inputs as a float.
float inputAt(const void *p, int j, WmmaInputs inputs) {
  uint16_t bits;
  std::memcpy(&bits, static_cast<const char *>(p) + 2 * j, 2);
  return inputs == WmmaInputs::BFloat16 ? bf16::toFloat(bits) : halfToFloat(bits);
}

}  // namespace

void cpuWmmaMma(WmmaOperands *const lanes[32], WmmaInputs inputs) {
  float a[16][16] = {}, b[16][16] = {}, c[16][16] = {};
  auto input = [&](const void *p, int j) { return inputAt(p, j, inputs); };
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    for (int j = 0; j < 8; ++j) {
      int e = 8 * l + j;
      a[e >> 4][e & 15] = input(lanes[l]->a, j);
      b[e >> 4][e & 15] = input(lanes[l]->b, j);
      c[e >> 4][e & 15] = lanes[l]->c[j];
    }
  }
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    for (int j = 0; j < 8; ++j) {
      int e = 8 * l + j, m = e >> 4, n = e & 15;
      float acc = c[m][n];
      for (int k = 0; k < 16; ++k) acc = std::fmaf(a[m][k], b[k][n], acc);
      lanes[l]->d[j] = acc;
    }
  }
}

void cpuMmaSync(WmmaOperands *const lanes[32], WmmaInputs inputs) {
  float a[16][16] = {}, b[16][8] = {}, c[16][8] = {};
  auto input = [&](const void *p, int j) { return inputAt(p, j, inputs); };
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    const int g = l >> 2, t = l & 3;
    for (int i = 0; i < 8; ++i)
      a[g + 8 * ((i >> 1) & 1)][2 * t + (i & 1) + 8 * (i >> 2)] = input(lanes[l]->a, i);
    for (int i = 0; i < 4; ++i) {
      b[2 * t + (i & 1) + 8 * (i >> 1)][g] = input(lanes[l]->b, i);
      c[g + 8 * (i >> 1)][2 * t + (i & 1)] = lanes[l]->c[i];
    }
  }
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    const int g = l >> 2, t = l & 3;
    for (int i = 0; i < 4; ++i) {
      const int m = g + 8 * (i >> 1), n = 2 * t + (i & 1);
      float acc = c[m][n];
      for (int k = 0; k < 16; ++k) acc = std::fmaf(a[m][k], b[k][n], acc);
      lanes[l]->d[i] = acc;
    }
  }
}

void cpuLdmatrix(LdmatrixOperands *const lanes[32], int num, bool trans) {
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    const int g = l >> 2, t = l & 3;
    for (int j = 0; j < num; ++j)
      for (int e = 0; e < 2; ++e) {
        const int r = trans ? 2 * t + e : g, col = trans ? g : 2 * t + e;
        const LdmatrixOperands *src = lanes[8 * j + r];
        lanes[l]->out[2 * j + e] = src ? src->row[col] : 0;
      }
  }
}

void cpuWgmmaA(WgmmaAOperands *const lanes[32], bool bfloat16) {
  float a[16][16] = {};
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) continue;
    const int g = l >> 2, t = l & 3;
    for (int i = 0; i < 8; ++i) {
      float v = lanes[l]->a[i];
      v = bfloat16 ? bf16::toFloat(bf16::fromFloat(v)) : float(f16::toDouble(f16::fromDouble(v)));
      a[g + 8 * ((i >> 1) & 1)][2 * t + (i & 1) + 8 * (i >> 2)] = v;
    }
  }
  for (int l = 0; l < 32; ++l)
    if (lanes[l]) std::memcpy(lanes[l]->out, a, sizeof a);
}

}  // namespace kjit
