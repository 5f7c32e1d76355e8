#!/bin/bash
# thirty-ninth session: gemm calls keep replay plans (execute.gemm_form; now variants_s39/gemm_replay.patch: apply it first). The replay tests (matmul
# and gemm forms), the gemm GPU tests, then host_overhead.py at 64^3 (its tm.gemm row now replays).
# About 250 s with TESTS_S=200.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s39b_tests \
    tests/test_gpu_replay.py tests/test_gpu_gemm.py
timeout 120 python3 benchmarks/host_overhead.py > "$OUT/s39b_host_overhead.txt" 2>&1
echo "host_overhead rc $?"; cat "$OUT/s39b_host_overhead.txt"
