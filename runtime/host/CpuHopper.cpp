// CpuHopper.cpp - see CpuHopper.h.
#include "runtime/host/CpuHopper.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "frontend/support/BFloat16.h"
#include "frontend/support/KernelAbi.h"
#include "runtime/host/CpuKernel.h"
#include "runtime/host/HostRuntime.h"

namespace kjit::hopper {

namespace {

constexpr uint64_t kField = (uint64_t(1) << 21) - 1;
constexpr int64_t kTxBias = int64_t(1) << 20;

struct Barrier {
  uint64_t pending, expected;
  int64_t tx;
  uint64_t phase;
};

Barrier decode(uint64_t w) {
  return {w & kField, (w >> 21) & kField, int64_t((w >> 42) & kField) - kTxBias, w >> 63};
}
uint64_t encode(const Barrier &b) {
  return (b.pending & kField) | ((b.expected & kField) << 21) |
         (uint64_t(b.tx + kTxBias) & kField) << 42 | (b.phase << 63);
}
void completeIfDone(Barrier &b) {
  if (b.pending == 0 && b.tx == 0) {
    b.phase ^= 1;
    b.pending = b.expected;
  }
}

struct Map {
  char *base;
  int64_t rank, elem, dims[5], strides[5], box[5];
  int swizzle;
};

bool readMap(const uint64_t *m, int64_t rank, Map &out, std::string &err) {
  if (m[0] != kTensorMapMagic) {
    err =
        "the tensor map was not made for the CPU device (make it with cuda.make_tensor_map "
        "while the CPU device is current)";
    return false;
  }
  out.base = reinterpret_cast<char *>(m[1]);
  out.rank = int64_t(m[2]);
  out.elem = int64_t(m[3]);
  if (out.rank != rank) {
    err = fmt::format("the tensor map has {} dimensions; the copy gives {} coordinates", out.rank,
                      rank);
    return false;
  }
  for (int k = 0; k < 5; ++k) {
    out.dims[k] = int64_t(m[4 + k]);
    out.strides[k] = int64_t(m[9 + k]);
    out.box[k] = int64_t((m[14] >> (12 * k)) & 0xfff);
  }
  out.swizzle = int(m[15]);
  return true;
}

// Whether the map's box fits a shared tile of `tileBytes` bytes.
bool fits(const Map &m, int64_t tileBytes, std::string &err) {
  int64_t box = m.elem;
  for (int64_t d = 0; d < m.rank; ++d) box *= m.box[d];
  if (box <= tileBytes) return true;
  err = fmt::format("the tensor map's box is {} bytes; the shared tile holds {}", box, tileBytes);
  return false;
}

// Whether the box starts 16-byte aligned in its rows: a GPU's tensor copy
// with another innermost coordinate is an illegal instruction.
bool aligned(const Map &m, const int64_t *coords, std::string &err) {
  int64_t inner = coords[m.rank - 1];
  if ((inner * m.elem) % 16 == 0) return true;
  err = fmt::format(
      "the innermost coordinate {} is {} bytes into a row; a tensor copy starts at a multiple of "
      "16 "
      "bytes (a GPU stops with CUDA_ERROR_ILLEGAL_INSTRUCTION)",
      inner, inner * m.elem);
  return false;
}

// Calls f(byte offset in the box, source address or null when outside) for
// every element of the box at `coords`.
template <class F>
void forBox(const Map &m, const int64_t *coords, F f) {
  int64_t count = 1;
  for (int64_t d = 0; d < m.rank; ++d) count *= m.box[d];
  for (int64_t e = 0; e < count; ++e) {
    int64_t rest = e, off = 0;
    bool inside = true;
    for (int64_t d = m.rank; d-- > 0;) {
      int64_t i = rest % m.box[d] + coords[d];
      rest /= m.box[d];
      inside = inside && i >= 0 && i < m.dims[d];
      off += i * m.strides[d];
    }
    f(uint64_t(e * m.elem), inside ? m.base + off : nullptr);
  }
}

}  // namespace

void mbarrierInit(uint64_t *bar, int64_t count) {
  *bar = encode({uint64_t(count), uint64_t(count), 0, 0});
}

bool mbarrierArrive(uint64_t *bar, int64_t txBytes, std::string &err) {
  Barrier b = decode(*bar);
  if (b.expected == 0) {
    err = "an arrival on an mbarrier that cuda.mbarrier.init() has not initialised";
    return false;
  }
  b.tx += txBytes;
  if (b.pending > 0) --b.pending;
  completeIfDone(b);
  *bar = encode(b);
  return true;
}

void mbarrierCompleteTx(uint64_t *bar, int64_t bytes) {
  Barrier b = decode(*bar);
  b.tx -= bytes;
  completeIfDone(b);
  *bar = encode(b);
}

bool mbarrierPhaseDone(uint64_t bar, int64_t parity) {
  return decode(bar).phase != uint64_t(parity & 1);
}

bool tmaLoad(void *dst, int64_t tileBytes, const uint64_t *map, const int64_t *coords, int64_t rank,
             int64_t &bytes, std::string &err) {
  Map m;
  if (!readMap(map, rank, m, err) || !fits(m, tileBytes, err) || !aligned(m, coords, err))
    return false;
  char *out = static_cast<char *>(dst);
  bytes = 0;
  forBox(m, coords, [&](uint64_t off, const char *src) {
    char *p = out + swizzle(off, m.swizzle);
    if (src)
      std::memcpy(p, src, size_t(m.elem));
    else
      std::memset(p, 0, size_t(m.elem));
    bytes += m.elem;
  });
  return true;
}

bool tmaStore(const void *src, int64_t tileBytes, const uint64_t *map, const int64_t *coords,
              int64_t rank, std::string &err) {
  Map m;
  if (!readMap(map, rank, m, err) || !fits(m, tileBytes, err) || !aligned(m, coords, err))
    return false;
  const char *in = static_cast<const char *>(src);
  forBox(m, coords, [&](uint64_t off, const char *dst) {
    if (dst) std::memcpy(const_cast<char *>(dst), in + swizzle(off, m.swizzle), size_t(m.elem));
  });
  return true;
}

bool wgmmaTilesFit(const int64_t tile[4], int64_t rows, int64_t itemBytes, const char *what,
                   std::string &err) {
  if (tile[0] >= rows && tile[1] == 128 / itemBytes && tile[2] == 128 && tile[3] == itemBytes)
    return true;
  err = fmt::format(
      "{} is a {} x {} tile with strides ({}, {}) bytes; wgmma reads {} rows of {} {}-bit values "
      "(a C-contiguous tile whose rows are 128 bytes)",
      what, tile[0], tile[1], tile[2], tile[3], rows, 128 / itemBytes, 8 * itemBytes);
  return false;
}

bool wgmmaNMajorFits(const WgmmaRecord &rec, int n, std::string &err) {
  const int64_t *t = rec.b;
  if (rec.bBlocks * 64 >= n && t[0] >= 16 && t[0] % 16 == 0 && t[1] == 64 && t[2] == 128 &&
      t[3] == 2 && rec.bBlockStride == t[0] * 128)
    return true;
  err = fmt::format(
      "b (transposed) is {} blocks of {} x {} values with strides ({}, {}, {}) bytes; wgmma reads "
      "{} blocks of rows of 64 16-bit values (a C-contiguous tile of 128-byte rows, kt a multiple "
      "of 16)",
      rec.bBlocks, t[0], t[1], rec.bBlockStride, t[2], t[3], (n + 63) / 64);
  return false;
}

void wgmma(const void *a, const void *b, float *acc, const WgmmaRecord &rec, int n, int64_t flags,
           uint32_t rank) {
  const bool bfloat16 = (flags & kWgmmaBFloat16) != 0, regA = (flags & kWgmmaRegisterA) != 0,
             nMajor = (flags & kWgmmaNMajor) != 0, fp8 = (flags & kWgmmaFloat8) != 0;
  // 16-bit values, 16 a step; or 8-bit ones (e4m3 or e5m2), 32 a step
  const uint64_t size = fp8 ? 1 : 2;
  const int steps = fp8 ? 32 : 16;
  auto value = [&](const void *tile, uint64_t off, bool e5m2) {
    if (fp8) return fp8::toFloat(static_cast<const uint8_t *>(tile)[off], e5m2);
    uint16_t bits;
    std::memcpy(&bits, static_cast<const char *>(tile) + off, 2);
    return bfloat16 ? bf16::toFloat(bits) : float(f16::toDouble(bits));
  };
  const bool e5m2A = (flags & kWgmmaE5M2A) != 0, e5m2B = (flags & kWgmmaE5M2B) != 0;
  const int64_t k = rec.k;
  uint32_t w = rank / 32, lane = rank % 32, g = lane >> 2, t = lane & 3;
  // a's element (row, steps k + kk): from the tile, or the warp's 16 x 16 slice.
  auto aAt = [&](uint64_t row, int kk) {
    if (regA) return static_cast<const float *>(a)[(row - 16 * w) * 16 + uint64_t(kk)];
    return value(a, swizzle(row * 128 + uint64_t(steps * k + kk) * size, 128), e5m2A);
  };
  // b's element (column col of the product, k index steps k + kk).
  auto bAt = [&](uint64_t col, int kk) {
    uint64_t r = uint64_t(steps * k + kk);
    if (!nMajor) return value(b, swizzle(col * 128 + r * size, 128), e5m2B);
    return value(static_cast<const char *>(b) + (col / 64) * uint64_t(rec.bBlockStride),
                 swizzle(r * 128 + (col % 64) * 2, 128), false);
  };
  for (int j = 0; j < n / 8; ++j)
    for (int i = 0; i < 4; ++i) {
      uint64_t row = 16 * w + g + 8 * (i >> 1), col = uint64_t(8 * j) + 2 * t + (i & 1);
      float s = acc[4 * j + i];
      for (int kk = 0; kk < steps; ++kk) s = std::fmaf(aAt(row, kk), bAt(col, kk), s);
      acc[4 * j + i] = s;
    }
}

}  // namespace kjit::hopper

// ---- what compiled kernels call -------------------------------------------------------

extern "C" {

void kjit_rt_raise(kjit::KjitCallContext *ctx, const char *excClass, const char *message,
                   const char *file, int32_t line);

// Hopper's asynchronous operations (HopperOp, frontend/support/KernelAbi.h).
// A failure raises RuntimeError and ends the thread there: its fiber is
// never resumed.
int64_t kjit_cpu_hopper(void *ctx, int32_t op, void *a, void *b, void *c, int64_t x, int64_t y,
                        const char *file, int32_t line, int32_t col) {
  namespace hp = kjit::hopper;
  using kjit::HopperOp;
  std::string err;
  auto *bar = static_cast<uint64_t *>(a);
  auto fail = [&](const char *what) {
    kjit_rt_raise(static_cast<kjit::KjitCallContext *>(ctx), "RuntimeError",
                  fmt::format("cuda.{}(): {}", what, err).c_str(), file ? file : "", line);
    kjit::fiberEnd(ctx);
  };
  switch (HopperOp(op)) {
  case HopperOp::MbarrierInit:
    hp::mbarrierInit(bar, x);
    kjit::fiberBarrierChanged(ctx);
    return 0;
  case HopperOp::MbarrierArrive:
  case HopperOp::MbarrierExpectTx:
    if (!hp::mbarrierArrive(bar, HopperOp(op) == HopperOp::MbarrierExpectTx ? x : 0, err))
      fail(HopperOp(op) == HopperOp::MbarrierArrive ? "mbarrier.arrive"
                                                    : "mbarrier.arrive_expect_tx");
    kjit::fiberBarrierChanged(ctx);
    return 0;
  case HopperOp::MbarrierTryWait: return hp::mbarrierPhaseDone(*bar, x) ? 1 : 0;
  case HopperOp::MbarrierWait:
    while (!hp::mbarrierPhaseDone(*bar, x))
      kjit::fiberPoll(ctx, file, line, col, "mbarrier.wait()");
    return 0;
  case HopperOp::TmaLoad: {
    int64_t bytes = 0;
    auto *rec = reinterpret_cast<const kjit::TmaRecord *>(x);
    if (!hp::tmaLoad(a, rec->tileBytes, static_cast<const uint64_t *>(b), rec->coords, y, bytes,
                     err))
      fail("tma.load");
    hp::mbarrierCompleteTx(static_cast<uint64_t *>(c), bytes);
    kjit::fiberBarrierChanged(ctx);
    return 0;
  }
  case HopperOp::TmaStore: {
    auto *rec = reinterpret_cast<const kjit::TmaRecord *>(x);
    if (!hp::tmaStore(a, rec->tileBytes, static_cast<const uint64_t *>(b), rec->coords, y, err))
      fail("tma.store");
    return 0;
  }
  case HopperOp::WarpgroupSync: kjit::fiberWarpgroupSync(ctx, file, line, col); return 0;
  case HopperOp::NamedBarrier:
    if (!kjit::fiberNamedBarrier(ctx, x, y & 0xffffffff, (y >> 32) != 0, file, line, col, err))
      fail(y >> 32 ? "named_barrier_sync" : "named_barrier_arrive");
    return 0;
  case HopperOp::Wgmma: {
    auto *rec = reinterpret_cast<const kjit::WgmmaRecord *>(x);
    int n = int(y & 0xffff);
    bool regA = (y & kjit::kWgmmaRegisterA) != 0, nMajor = (y & kjit::kWgmmaNMajor) != 0;
    int64_t item = (y & kjit::kWgmmaFloat8) ? 1 : 2;
    if ((!regA && !hp::wgmmaTilesFit(rec->a, 64, item, "a", err)) ||
        (!nMajor && !hp::wgmmaTilesFit(rec->b, n, item, "b", err)) ||
        (nMajor && !hp::wgmmaNMajorFits(*rec, n, err)))
      fail("wgmma.mma_async");
    // 16-column slices of k: 4 in a K-major tile, kt/16 in an N-major one.
    int64_t slices = nMajor ? rec->b[0] / 16 : 4;
    if (!regA) slices = std::min<int64_t>(slices, 4);
    if (rec->k < 0 || rec->k >= slices) {
      err = fmt::format("k is {}; the tiles hold k = 0 to {}", rec->k, slices - 1);
      fail("wgmma.mma_async");
    }
    hp::wgmma(a, b, static_cast<float *>(c), *rec, n, y, kjit::fiberLinearThread(ctx) % 128);
    return 0;
  }
  }
  err = "an unknown operation";
  fail("hopper");
  return 0;
}

}  // extern "C"
