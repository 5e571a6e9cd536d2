#!/usr/bin/env bash
# Before and after a change, in one run on one machine: builds the Python
# binding of two kjit trees, each against its own device bundle, then times
# them in alternating rounds (benchmarks/gpu/compare_trees.py: launch
# overhead with 0, 3 and 16 arguments, first call, eager compile, @njit call
# overhead) and prints figure, before, after, after/before. compare.json and
# the logs go to $OUT (default /tmp/kjit-compare/out). Without a GPU (no
# nvidia-smi), only the CPU rows.
#     tools/gpu/compare.sh BEFORE_DIR AFTER_DIR [ROUNDS]     (ROUNDS: 7)
# A DIR is a tree's root (python_bindings/, the headers it includes,
# benchmarks/); its bundle (tools/gpu/make_bundle.sh) is DIR/bundle.tar.xz or
# DIR/.device/bundle.tar.xz; its binding is built into DIR/python_bindings/kjit/.
# The measuring code is this tree's, the same for both. A "before" of commit C
# in .device-before/ (ignored by git), made here:
#     git worktree add --detach ../wt-before C
#     (cd ../wt-before && bash tools/gpu/make_bundle.sh .device)
#     mkdir -p .device-before && cp ../wt-before/.device/bundle.tar.xz .device-before/
#     git -C ../wt-before archive HEAD python_bindings benchmarks tools examples \
#         compiler frontend runtime targets | tar x -C .device-before
# and with this tree's bundle made too, on the GPU machine (.device and
# .device-before carried):
#     bash tools/gpu/compare.sh .device-before .
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
rounds=${3:-7}
work=${TMPDIR:-/tmp}/kjit-compare
out=${OUT:-$work/out}
mkdir -p "$out" && out=$(cd "$out" && pwd)
py=${PYTHON:-$(command -v python3)}
pybind=$("$py" -m pybind11 --cmakedir 2> /dev/null || echo /usr/lib/cmake/pybind11)
gpu=0
nvidia-smi -L > /dev/null 2>&1 && gpu=1

build() {  # DIR NAME: unpacks DIR's bundle into $work/NAME and builds DIR's binding against it
  local dir=$1 w=$work/$2 log=$out/build-$2.log tarball=$1/bundle.tar.xz
  [ -f "$tarball" ] || tarball=$dir/.device/bundle.tar.xz
  echo "== $2: $dir (bundle $tarball)"
  rm -rf "$w" && mkdir -p "$w" && xz -dc "$tarball" | tar xf - -C "$w"
  { cmake -S "$dir/python_bindings" -B "$w/build" -G Ninja -DKJIT_CORE_LIB="$w/bundle/libkjit_core.so" \
      -DKJIT_EXTRA_INCLUDE="$w/bundle/include" -DPython3_EXECUTABLE="$py" -Dpybind11_DIR="$pybind" &&
    cmake --build "$w/build"; } > "$log" 2>&1 || { tail -30 "$log"; exit 1; }
}
build "$before" before
build "$after" after
echo "== $rounds rounds, gpu=$gpu, $("$py" --version)"
"$py" benchmarks/gpu/compare_trees.py "$before" "$after" --rounds "$rounds" --gpu "$gpu" --out "$out" \
  2>&1 | tee "$out/compare.log"
