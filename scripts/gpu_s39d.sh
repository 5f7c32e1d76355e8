#!/bin/bash
# thirty-ninth session, one call (run with variants_s39/b_phases.patch applied, then committed): (1) B rows off 16 bytes read in phases (probe_b_phases.py, both
# 16-bit dtypes: auto = the shipped phase path, auto with B padded, the probe kernel, cuBLAS);
# (2) the GPU tests of the phases, of gemm replay plans and of gemm (8 shards); (3) host overhead.
# Cubins precompiled (probe_b_phases.py --compile-only scratch/cubin_s32b). About 420 s.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
for dt in float16 bfloat16; do
  timeout 110 python3 scripts/variants_s39/probe_b_phases.py --dtype $dt > "$OUT/s39d_bphases_$dt.md" 2>&1
  echo "probe $dt rc $?"; tail -18 "$OUT/s39d_bphases_$dt.md"
done
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s39d_tests \
    tests/test_gpu_wgmma_tma.py tests/test_gpu_replay.py tests/test_gpu_gemm.py
timeout 60 python3 benchmarks/host_overhead.py --calls 1000 > "$OUT/s39d_host_overhead.txt" 2>&1
echo "host_overhead rc $?"; cat "$OUT/s39d_host_overhead.txt"
