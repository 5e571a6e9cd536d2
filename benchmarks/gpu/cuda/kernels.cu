// The benchmark kernels in CUDA C++, as a CUDA programmer would write them:
// the reference kjit is compared against (PTX/SASS instruction counts here,
// run time on the GPU machine).
#define TPB 16

extern "C" __global__ void saxpy(float a, const float *__restrict__ x, const float *__restrict__ y,
                                 float *__restrict__ out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" __global__ void fast_matmul(const float *A, const float *B, float *C, int M, int K, int N) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0.0f;
  for (int i = 0; i < gridDim.x; ++i) {
    sA[ty][tx] = 0;
    sB[ty][tx] = 0;
    if (y < M && tx + i * TPB < K) sA[ty][tx] = A[y * K + tx + i * TPB];
    if (x < N && ty + i * TPB < K) sB[ty][tx] = B[(ty + i * TPB) * N + x];
    __syncthreads();
    for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < M && x < N) C[y * N + x] = tmp;
}
