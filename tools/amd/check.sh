#!/usr/bin/env bash
# On a machine with an AMD GPU and ROCm: build kjit (the README's commands),
# run the AMD tests against the real HIP runtime (the device is used: no
# fake) with the device-parity suite's "hip" device, then the whole Python
# suite with KJIT_DEVICE=hip, run the seed kernels through kjit.hip (checked against NumPy) and
# time them as kernels alone next to their HIP C++ twins built by hipcc.
# Logs and JSON go to $OUT (default build/amd-out).
#     tools/amd/check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-build/amd-out}
mkdir -p "$out"
py=${PYTHON:-/usr/bin/python3}
echo "== build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
cmake --build build > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
export PYTHONPATH=$PWD/python_bindings
echo "== the device"
$py -c "from kjit import hip; print(hip.list_devices() if hip.is_available() else hip.why())"
echo "== AMD tests (code objects, the HIP runtime, the device-parity suite on the HIP device)"
$py -m pytest -q -p no:cacheprovider -rs tests/python/kernels/test_amdgpu_compile.py tests/python/devices/test_hip_runtime.py \
  tests/python/devices/test_hip_device.py "tests/python/kernels/test_kernels_devices.py" -k "hip or amdgpu or not test_program" \
  2>&1 | tee "$out/pytest.log" | tail -5
echo "== the whole Python suite with @cuda.jit kernels on the AMD GPU (KJIT_DEVICE=hip)"
KJIT_DEVICE=hip $py -m pytest -q -p no:cacheprovider tests/python 2>&1 | tee "$out/pytest-hip.log" | tail -3
echo "== seed kernels through kjit.hip: results and kernel times"
$py benchmarks/amdgpu/run_seeds.py "$out/kjit.json" > "$out/seeds.log" 2>&1; rc=$?
tail -40 "$out/seeds.log"
if command -v hipcc > /dev/null; then
  echo "== the same kernels in HIP C++ (hipcc)"
  hipcc -O3 benchmarks/amdgpu/bench.hip -o "$out/bench_hip" && "$out/bench_hip" | tee "$out/hip.json"
else
  echo "== hipcc not found: no HIP C++ timings"
fi
echo "== instruction counts against clang's HIP (benchmarks/amdgpu/parity.py)"
$py benchmarks/amdgpu/parity.py | tail -25
exit $rc
