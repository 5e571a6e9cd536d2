// The seed kernels (tools/gpu/seed_kernels.py) in HIP C++, as a HIP
// programmer writes them: the reference for kjit's AMDGCN code
// (benchmarks/amdgpu/parity.py compiles both and counts instructions).
// Each reads the same sizes as the Python kernel (x.shape[0], A.shape[1]
// ...: an array is its pointer, its shape and, for 2-d arrays, its row
// pitch), with 64-bit indices as cuda.grid() gives in kjit and Numba.
#include <hip/hip_runtime.h>

#define TPB 16

extern "C" __global__ void add_kernel(const float *x, const float *y, float *out, long n) {
  long start = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = start; i < n; i += stride) out[i] = x[i] + y[i];
}

extern "C" __global__ void increment_a_2D_array(float *a, long rows, long cols, long pitch) {
  long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
  if (x < rows && y < cols) a[x * pitch + y] += 1;
}

extern "C" __global__ void saxpy(float a, const float *x, const float *y, float *out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" __global__ void fast_matmul(const float *A, long a0, long a1, long ap, const float *B,
                                       long b0, long b1, long bp, float *C, long c0, long c1,
                                       long cp) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0;
  for (int i = 0; i < (int)gridDim.x; ++i) {
    sA[ty][tx] = 0;
    sB[ty][tx] = 0;
    if (y < a0 && tx + i * TPB < a1) sA[ty][tx] = A[y * ap + tx + i * TPB];
    if (x < b1 && ty + i * TPB < b0) sB[ty][tx] = B[(ty + i * TPB) * bp + x];
    __syncthreads();
    for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < c0 && x < c1) C[y * cp + x] = tmp;
}

// (float32 / int64 is float64 in Python's and Numba's rules: the bin width
// and the division are double, as in the kjit kernel.)
extern "C" __global__ void histogram(const float *x, long n, float xmin, float xmax, int *hist,
                                     long nbins) {
  double width = (double)(xmax - xmin) / (double)nbins;
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
    int bin = (int)((double)(x[i] - xmin) / width);
    if (bin >= 0 && bin < nbins) atomicAdd(&hist[bin], 1);
  }
}

extern "C" __global__ void block_sum(const float *a, long n, float *out) {
  __shared__ float buf[256];
  int tid = threadIdx.x;
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  buf[tid] = i < n ? a[i] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (tid < s) buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(&out[0], buf[0]);
}

extern "C" __global__ void sinexp(const float *x, float *out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int k = 0; k < 64; ++k) v = sinf(v) * expf(-v * 0.01f);
    out[i] = v;
  }
}
