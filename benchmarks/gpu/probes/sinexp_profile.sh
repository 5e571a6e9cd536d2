#!/usr/bin/env bash
# Probe, on the GPU machine: why kjit's float64 sin*exp kernel and
# numba-cuda's time differently in bench_gpu.py. Needs the binding built
# (tools/gpu/check.sh) and PYTHONPATH set. Writes to $OUT:
#   ncu_base.csv / ncu_boost.csv: the four timed launches under ncu, with
#     clocks locked to base and left free (duration, cycles, instructions,
#     occupancy, FP64 pipe use, stalls);
#   sass_kjit.txt / sass_numba.txt: the SASS each kernel ran (ncu's source page);
#   bench_kjit_first.txt / bench_numba_first.txt: bench_gpu.py's sin*exp rows
#     with each library first.
set -uo pipefail
out=${OUT:?}
here=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3)
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__cycles_active.avg,smsp__inst_executed.sum,\
launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fp64.sum,\
smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,\
smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,\
smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,\
smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,\
smsp__thread_inst_executed_per_inst_executed.ratio,sm__cycles_active.avg,gpc__cycles_elapsed.avg.per_second
for clocks in base none; do
  tag=$([ $clocks = base ] && echo base || echo boost)
  ncu --clock-control $clocks --launch-skip 2 --launch-count 4 --metrics "$metrics" --csv --page raw \
    "$py" "$here/sinexp_twice.py" "$out" > "$out/ncu_$tag.csv" 2> "$out/ncu_$tag.err"
  echo "ncu ($tag clocks): rc $?"
done
ncu --launch-skip 2 --launch-count 2 --section SourceCounters -o "$out/src" "$py" "$here/sinexp_twice.py" "$out" > /dev/null 2>&1
ncu -i "$out/src.ncu-rep" --page source --print-source sass --csv > "$out/sass_both.csv" 2>&1
echo "sass rows: $(wc -l < "$out/sass_both.csv")"
for first in 0 1; do
  BENCH_NUMBA_FIRST=$first "$py" "$here/../bench_gpu.py" "$out" 2>&1 | grep -E "sin\*exp" \
    > "$out/bench_$([ $first = 1 ] && echo numba || echo kjit)_first.txt"
done
tail -n +1 "$out"/bench_*_first.txt
