#!/bin/bash
# thirty-ninth session: (1) which part of the phase loads faults (CUDA_ERROR_ILLEGAL_INSTRUCTION in
# gpu_s39d.sh): the probe kernel and its variants, each in its own process; (2) the replay and
# gemm GPU tests on the tree without the patch (gpu_s39d.sh's ran after the fault, in dead
# contexts). About 220 s with TESTS_S=150.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
P=scripts/variants_s39/probe_b_phases.py
for shape in 64x10192x4000 64x10188x4000 64x10186x4000; do
  timeout 60 python3 $P --diagnose $shape 2>&1 | tail -1
done
for v in noshift map0 unroll1; do
  timeout 60 python3 $P --diagnose 64x10186x4000 --variant $v 2>&1 | tail -1
done
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-150} scripts/gpu_shards.sh s39e_tests tests/test_gpu_replay.py ${GEMM_TESTS-tests/test_gpu_gemm.py}
