#!/usr/bin/env bash
# Compiles tools/gpu/seed_kernels.py to PTX (sm_90) with kjitc, into DIR
# (default .device/ptx), for tools/gpu/run_ptx.py on the GPU machine.
# The GPU machine has no LLVM: the PTX is made here and carried there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device/ptx}
mkdir -p "$out"
k=build/bin/kjitc
src=tools/gpu/seed_kernels.py
while IFS='|' read -r name sig; do
  [ -z "$name" ] && continue
  "$k" --emit=ptx --cc=90 "$src:$name" --sig="$sig" > "$out/$name.ptx"
  echo "$name $(wc -l < "$out/$name.ptx") lines"
done <<'LIST'
add_kernel|(float32[::1], float32[::1], float32[::1])
increment_a_2D_array|(float32[:, ::1],)
saxpy|(float32, float32[::1], float32[::1], float32[::1])
fast_matmul|(float32[:, ::1], float32[:, ::1], float32[:, ::1])
histogram|(float32[::1], float32, float32, int32[::1])
block_sum|(float32[::1], float32[::1])
sinexp|(float32[::1], float32[::1])
warp_ops|(int32[::1], int32[::1])
LIST
"$k" --emit=ptx --cc=90 --boundscheck "$src:checked_copy" --sig="(float32[::1], float32[::1], int64)" > "$out/checked_copy.ptx"
echo "checked_copy (boundscheck) $(wc -l < "$out/checked_copy.ptx") lines"
