#!/bin/bash
# On the GPU machine, after tools/gpu/check.sh has built the binding:
#     bash benchmarks/gpu/probes/launch_cpp_variance.sh   (on the GPU machine, with .device carried)
# Where does the C++ launch's time differ between a standalone program and kjit's process?
set -e
cd "$(dirname "$0")/../../.."
export PYTHONPATH=$PWD/python_bindings
py=$(command -v python3)
( cd .device && xz -dc bundle.tar.xz | tar xf - )
ls python_bindings/kjit/*.so >/dev/null
nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC benchmarks/gpu/cuda/launch_lib.cu -o /tmp/liblaunch.so
nvcc -O3 -arch=sm_90 benchmarks/gpu/cuda/bench.cu -o /tmp/bench_cu
cat > /tmp/cpp_only.py <<'PY'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1]); lib.cpp_launch3_us.restype = ctypes.c_double
lib.cpp_launch3_us(1000)
print("cpp in a bare python:", sorted(lib.cpp_launch3_us(20000) for _ in range(9))[4])
PY
for i in 1 2 3; do
  /tmp/bench_cu | $py -c "import json,sys; print('standalone C++ launch3:', json.load(sys.stdin)['launch3_us'])"
  $py /tmp/cpp_only.py /tmp/liblaunch.so
  KJIT_CUDA_POOL=1 $py benchmarks/gpu/probes/launch_alternating.py /tmp/liblaunch.so | sed 's/^/pool on:  /'
  KJIT_CUDA_POOL=0 $py benchmarks/gpu/probes/launch_alternating.py /tmp/liblaunch.so | sed 's/^/pool off: /'
done
