// CpuMatrix.h - warp matrix operations on the CPU device (cuda.wmma), run by
// the executor (CpuKernel.cpp) when all lanes of a warp have come.
#pragma once

#include <cstdint>

#include "frontend/support/KernelAbi.h"

namespace kjit {

// d = a @ b + c for the 16x16x16 product whose elements the lanes hold
// (lanes[l] null: a lane not taking part, whose elements are zeros): each
// element of d is c's plus the 16 products in order of k, each added with
// one float32 fma.
void cpuWmmaMma(WmmaOperands *const lanes[32], WmmaInputs inputs);

// mma.sync m16n8k16 in PTX's fragment layouts (g = lane / 4, t = lane % 4):
// a[i] is A[g + 8 ((i >> 1) & 1)][2t + (i & 1) + 8 (i >> 2)], b[i] is
// B[2t + (i & 1) + 8 (i >> 1)][g], c[i] and d[i] are C[g + 8 (i >> 1)][2t + (i & 1)];
// d as cpuWmmaMma computes it.
void cpuMmaSync(WmmaOperands *const lanes[32], WmmaInputs inputs);

// ldmatrix .m8n8.x{num}[.trans].b16: lane 8j + r supplies row r of matrix j;
// each lane gets, for each matrix j, M_j[g][2t] and M_j[g][2t + 1] (with
// trans, M_j[2t][g] and M_j[2t + 1][g]).
void cpuLdmatrix(LdmatrixOperands *const lanes[32], int num, bool trans);
// wgmma's a in registers: the warp's 16 x 16 slice, for every lane.
void cpuWgmmaA(WgmmaAOperands *const lanes[32], bool bfloat16);

}  // namespace kjit
