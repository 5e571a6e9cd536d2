// The CUDA C++ launch loops of bench.cu as a library, so that
// benchmarks/gpu/bench_gpu.py can time them in its own process, in rounds
// alternating with kjit's: both then see the same machine state.
//     nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC launch_lib.cu -o liblaunch.so
#include <chrono>

extern "C" __global__ void lib_empty3(float *a, float *b, float *c) {}
extern "C" __global__ void lib_empty0() {}

static float *bufs[3];

template <class F>
static double perLaunch(F launch, int n) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) launch();
  auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
}

// Microseconds per launch over n launches of an empty kernel with three
// device pointers (after a warm-up on the first call).
extern "C" double cpp_launch3_us(int n) {
  if (!bufs[0]) {
    for (auto &b : bufs) cudaMalloc(&b, 64);
    for (int i = 0; i < 100; ++i) lib_empty3<<<1, 1>>>(bufs[0], bufs[1], bufs[2]);
    cudaDeviceSynchronize();
  }
  return perLaunch([] { lib_empty3<<<1, 1>>>(bufs[0], bufs[1], bufs[2]); }, n);
}

extern "C" double cpp_launch0_us(int n) {
  return perLaunch([] { lib_empty0<<<1, 1>>>(); }, n);
}

extern "C" int cpp_last_error() { return int(cudaDeviceSynchronize()); }
