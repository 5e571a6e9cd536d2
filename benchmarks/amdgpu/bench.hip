// The HIP C++ side of benchmarks/amdgpu/run_seeds.py's timings: the seed
// kernels' twins (kernels.hip) launched on device buffers and timed as
// run_seeds.py times kjit's (rounds of 20 launches ended by a
// synchronisation, the median round). Prints one JSON object.
//   hipcc -O3 bench.hip -o bench_hip
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels.hip"

#define HIP_OK(call)                                                        \
  do {                                                                      \
    hipError_t e_ = (call);                                                 \
    if (e_ != hipSuccess) {                                                 \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(e_)); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

template <class F>
static double timeLaunches(F launch) {
  for (int i = 0; i < 3; ++i) launch();
  HIP_OK(hipDeviceSynchronize());
  std::vector<double> t;
  for (int r = 0; r < 10; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) launch();
    HIP_OK(hipDeviceSynchronize());
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                    .count() / 20);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const long n = 1L << 24, m = 1024;
  float *x, *y, *out, *A, *B, *C;
  int *hist;
  HIP_OK(hipMalloc(&x, 4 * n));
  HIP_OK(hipMalloc(&y, 4 * n));
  HIP_OK(hipMalloc(&out, 4 * n));
  HIP_OK(hipMalloc(&hist, 4 * 64));
  HIP_OK(hipMalloc(&A, 4 * m * m));
  HIP_OK(hipMalloc(&B, 4 * m * m));
  HIP_OK(hipMalloc(&C, 4 * m * m));
  dim3 blocks((n + 255) / 256), threads(256);
  double saxpyUs = timeLaunches([&] { saxpy<<<blocks, threads>>>(2.0f, x, y, out, n); });
  double sinexpUs = timeLaunches([&] { sinexp<<<blocks, threads>>>(x, out, n); });
  double histUs = timeLaunches([&] { histogram<<<1024, 256>>>(x, n, 0.0f, 1.0f, hist, 64); });
  dim3 g(m / TPB, m / TPB), b(TPB, TPB);
  double mmUs = timeLaunches([&] { fast_matmul<<<g, b>>>(A, m, m, m, B, m, m, m, C, m, m, m); });
  std::printf("{\"saxpy 16M f32\": %.2f, \"64 sin*exp 16M f32\": %.2f, \"histogram 16M\": %.2f, "
              "\"tiled matmul 1024^2\": %.2f}\n",
              saxpyUs, sinexpUs, histUs, mmUs);
  return 0;
}
