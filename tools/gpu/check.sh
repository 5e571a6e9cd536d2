#!/usr/bin/env bash
# On the GPU machine: unpack the bundle (tools/gpu/make_bundle.sh), build the
# Python binding for the Python there, run the Python tests, run the PTX of
# the seed kernels on the GPU against NumPy and nvcc, and print a short
# table last. Logs and JSON go to $OUT (or DIR/out).
#     tools/gpu/check.sh .device
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
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
echo "== Python tests (CPU @jit, CUDA compilation)"
$py -m pytest -q -p no:cacheprovider tests/python 2>&1 | tee "$out/pytest.log" | tail -3
echo "== seed kernels on the GPU"
$py tools/gpu/run_ptx.py "$dir/ptx" "$out" 2>&1 | tee "$out/run_ptx.log" | grep -E "PASS|FAIL|ratio|passed"
echo "== summary"
grep -E "passed|failed" "$out/pytest.log" | tail -1
grep -E "passed, .* failed" "$out/run_ptx.log" | tail -1
grep -E "ratio" "$out/run_ptx.log"
