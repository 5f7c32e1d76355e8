#!/bin/bash
# for the fortieth session (written in the thirty-ninth; not run): (1) the B phase loads' fault
# confirmed (probe_b_phases.py --diagnose, each variant in its own process: no patch needed);
# (2) variants_s39/gemm_replay.patch applied, its GPU tests (test_gpu_replay's gemm forms, and
# test_gpu_gemm, whose staging moved into execute._stage_epilogue) in 8 shards; (3) host_overhead
# at 64^3 (tm.gemm was ~130 us a call; 20.7 with the patch in gpu_s39d.sh). About 330 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
P=scripts/variants_s39/probe_b_phases.py
# (the fault's cause, from others' reports: boxes off 16-byte boundaries; "noshift" should run)
for v in "" noshift; do
  timeout 60 python3 $P --diagnose 64x10186x4000 --variant "$v" 2>&1 | tail -1
done
git apply scripts/variants_s39/gemm_replay.patch || { echo "gemm_replay.patch did not apply"; exit 1; }
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-180} scripts/gpu_shards.sh s40a_tests tests/test_gpu_replay.py tests/test_gpu_gemm.py
timeout 60 python3 benchmarks/host_overhead.py --calls 1000 > "$OUT/s40a_host_overhead.txt" 2>&1
echo "host_overhead rc $?"; cat "$OUT/s40a_host_overhead.txt"
