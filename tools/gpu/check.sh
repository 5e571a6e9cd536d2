#!/usr/bin/env bash
# On the GPU machine: unpack the bundle (tools/gpu/make_bundle.sh), build the
# Python binding for the Python there, run every Python test (the GPU ones
# included), run the README's demo, then the benchmarks against numba-cuda,
# CuPy and nvcc, and print a short table last. Logs and JSON go to $OUT (or
# DIR/out).
#     tools/gpu/check.sh .device [--quick|--cpu]
#         --quick: tests only; --cpu: tests, then the CPU device's benchmark
#         (benchmarks/cpu_device) instead of the GPU ones
#     KJIT_CHECK_TESTS="tests/python/kernels tests/python/devices/test_x.py ..." runs those only;
#     KJIT_CHECK_TIMEOUT (540 s) bounds the tests: the whole suite takes about
#     500 s on an H200, near a 600 s call: split it in two calls when it grows
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
quick=${2:-}
out=${OUT:-$dir/out}
mkdir -p "$out"
( cd "$dir" && xz -dc bundle.tar.xz | tar xf - )
b=$(cd "$dir/bundle" && pwd)
py=$(command -v python3)
echo "== building the binding for $($py --version) (numpy $($py -c 'import numpy; print(numpy.__version__)'))"
cmake -S python_bindings -B /tmp/kjit-py -G Ninja -DKJIT_CORE_LIB="$b/libkjit_core.so" \
  -DKJIT_EXTRA_INCLUDE="$b/include" -DPython3_EXECUTABLE="$py" \
  -Dpybind11_DIR="$($py -m pybind11 --cmakedir)" > "$out/binding-configure.log" 2>&1 || { tail -20 "$out/binding-configure.log"; exit 1; }
cmake --build /tmp/kjit-py > "$out/binding-build.log" 2>&1 || { tail -30 "$out/binding-build.log"; exit 1; }
export PYTHONPATH=$PWD/python_bindings
# What the binding brings of the C++ runtime: its own copy must stay hidden.
so=$(ls python_bindings/kjit/_kjit*.so)
echo "binding: $(readelf -d "$so" | grep -o 'NEEDED.*' | tr -s ' ' | cut -d' ' -f2- | tr '\n' ' ')"\
  "libstdc++ symbols exported: $(readelf --dyn-syms -W "$so" | awk '$7!="UND"' | grep -c ' _ZNSt6locale')"
echo "== demo (README)"
$py examples/saxpy.py 2>&1 | tail -2
echo "== AMD demo (compiles for AMD GPUs here; NumPy imported first)"
timeout 120 $py examples/amd_saxpy.py 2>&1 | tail -2
echo "== Python tests, GPU tests included"
# (KJIT_FRONTEND=bytecode: --assert=plain, so that pytest does not rewrite the
# bytecode of the functions the tests compile)
plain=""; [ "${KJIT_FRONTEND:-}" = bytecode ] && plain="--assert=plain"
timeout ${KJIT_CHECK_TIMEOUT:-540} $py -m pytest -q -p no:cacheprovider $plain -rs ${KJIT_CHECK_TESTS:-tests/python} 2>&1 | tee "$out/pytest.log" | grep -E "FAIL|Error|passed|failed" | tail -15
if [ "$quick" = "--cpu" ]; then
  echo "== benchmarks: the CPU device against @jit(parallel=True) and Numba's simulator"
  $py benchmarks/cpu_device/bench_cpu_device.py --json "$out/cpu_device.json" > "$out/bench.log" 2>&1 || tail -30 "$out/bench.log"
elif [ "$quick" != "--quick" ]; then
  echo "== benchmarks: kjit, numba-cuda, CuPy, nvcc"
  $py benchmarks/gpu/bench_gpu.py "$out" > "$out/bench.log" 2>&1 || tail -30 "$out/bench.log"
fi
echo "== summary"
grep -E "passed|failed" "$out/pytest.log" | tail -1
[ -f "$out/bench.log" ] && sed -n '/^threads\|^figure/,$p' "$out/bench.log"
exit 0
