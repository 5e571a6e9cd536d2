// CpuHopper.h - Hopper's asynchronous operations on the CPU device (mbarriers,
// the bulk tensor copies, wgmma), run at once by the thread that issues them
// (kjit_cpu_hopper in CpuKernel.cpp calls these).
//
// An mbarrier is a uint64 in kjit's own encoding: pending arrivals (bits
// 0-20), the arrivals a phase expects (21-41), the transaction bytes still
// due plus 2**20 (42-62), and the parity of the current phase (bit 63). A
// phase completes when no arrival and no byte is due; the next one then
// expects as many arrivals again.
//
// A tensor map for the CPU device is 16 uint64s (cuda.make_tensor_map writes
// them): kTensorMapMagic, the array's address, rank, element size, the
// dimensions and byte strides (index order, five each), the box (five 12-bit
// fields, index order) and the swizzle span in bytes (0, 32, 64, 128).
#pragma once

#include <cstdint>
#include <string>

namespace kjit {
struct WgmmaRecord;  // frontend/support/KernelAbi.h
}

namespace kjit::hopper {

constexpr uint64_t kTensorMapMagic = 0x50414d544a4b4a4bull;  // "KJKJTMAP"

void mbarrierInit(uint64_t *bar, int64_t count);
// An arrival, after `txBytes` more bytes are expected; false (with `err`)
// when the barrier is not in a phase (never initialised).
bool mbarrierArrive(uint64_t *bar, int64_t txBytes, std::string &err);
// `bytes` of a copy have landed.
void mbarrierCompleteTx(uint64_t *bar, int64_t bytes);
// Whether the phase of parity `parity` has completed (the current phase's
// parity is the other).
bool mbarrierPhaseDone(uint64_t bar, int64_t parity);

// The box at `coords` (index order, `rank` of them) of the map's array into
// dst (a shared tile of `tileBytes` bytes: a larger box is an error), swizzled as the map says,
// elements outside the array as zeros; `bytes` is the box's size. False with `err` for a map that
// is not one.
bool tmaLoad(void *dst, int64_t tileBytes, const uint64_t *map, const int64_t *coords, int64_t rank,
             int64_t &bytes, std::string &err);
// The box at `coords` from src (swizzled as the map says) into the array;
// elements outside it are not written.
bool tmaStore(const void *src, int64_t tileBytes, const uint64_t *map, const int64_t *coords,
              int64_t rank, std::string &err);

// The thread `rank` (0-127) of a warpgroup: its n/2 accumulator elements
// of acc += A[:, 16k:16k+16] @ B[16k:16k+16, :] (rec.k). A: a K-major tile
// of 64 rows (64 16-bit values a row, the 128-byte swizzle's layout), or
// with kWgmmaRegisterA in flags the warp's 16 x 16 slice of a (float32,
// row-major: cpuWgmmaA). B: a K-major tile of n rows (B = b.T), or with
// kWgmmaNMajor rec.bBlocks blocks of kt rows of 64 columns (rec.bBlockStride
// bytes apart). With kWgmmaFloat8, a and b are K-major tiles of 8-bit
// floats (e4m3, or e5m2 with kWgmmaE5M2A/B), 32 values a step. Each
// element adds its products in order of k with float32 fma.
void wgmma(const void *a, const void *b, float *acc, const WgmmaRecord &rec, int n, int64_t flags,
           uint32_t rank);
// Whether a tile (rows, columns, byte strides) is one wgmma can read `rows`
// rows of: 64 16-bit values a row, rows 128 bytes apart.
bool wgmmaTilesFit(const int64_t tile[4], int64_t rows, int64_t itemBytes, const char *what,
                   std::string &err);
// Whether an N-major b holds the n columns of a product (blocks of 64
// columns, kt rows of 128 bytes, kt a multiple of 16).
bool wgmmaNMajorFits(const WgmmaRecord &rec, int n, std::string &err);

// The byte offset where a swizzle of `span` bytes (0: none) puts byte
// offset `o` of a tile (whose start is 1024-byte aligned on a GPU).
inline uint64_t swizzle(uint64_t o, int span) {
  if (span < 32) return o;
  uint64_t mask = uint64_t(span / 16 - 1);
  return o ^ (((o >> 7) & mask) << 4);
}

}  // namespace kjit::hopper
