#!/bin/bash
# for the thirty-eighth session: the GPU tests gpu_s37a.sh did not reach (test_gpu_fast,
# test_gpu_precision; test_gpu_core runs in gpu_s38a.sh) in 8 shards, then gpu_s38b.sh's probes of
# unaligned skinny 16-bit products. About 500 s with TESTS_S=200.
# Cache (CPU): scratch/cubin_s32b (gpu_s38a.sh's and gpu_s38b.sh's).
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
t0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s38c_tests \
    tests/test_gpu_fast.py tests/test_gpu_precision.py
echo "GPU tests took $(( $(date +%s) - t0 )) s"
[ -n "${PROBES-1}" ] && bash scripts/gpu_s38b.sh
