#!/bin/bash
# for the thirty-eighth session (written in the thirty-seventh; not run): replay_copies.patch
# and stream_from_external.patch
# (a call that copies an operand into row-major order keeps its plan, and replay makes the copy)
# applied on the device's copy of the tree, then: probe_replay_copies.py (per-element checks,
# host µs per call kept against cleared plans), the batched draw of seed 3505 (its 0.02x and 0.05x
# rows were this host time), and the GPU tests of the general path in 8 shards, test_gpu_replay
# first. Apply the patch in the repository (git apply) only after this passes.
# Cache (CPU): gpu_s37a.sh's (scratch/cubin_s32b). About 550 s with the shards at TESTS_S=200.
. "$(dirname "$0")/gpu_preamble.sh" scratch/cubin_s32b
timeout 60 python3 benchmarks/host_overhead.py --calls 500 > "$OUT/s38a_host_before.txt" 2>&1; cat "$OUT/s38a_host_before.txt"
# (variants_s38/replay_zero.patch: both, and the two _zero_operands made one wgmma_tma.zero_operands)
for p in variants_s38/replay_zero; do
  { git apply scripts/$p.patch 2>/dev/null || patch -p1 < scripts/$p.patch; } \
    && echo "$p applied" || { echo "$p did not apply"; exit 1; }
done
# stream_from_external: the K = 0 launches of wgmma_tma and wgmma_tma_tf32 allocate their zero
# operands under Stream.from_external, not the deprecated ExternalStream (an error here if it warns)
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider -W "error:ExternalStream is deprecated:DeprecationWarning" \
    tests/test_gpu_wgmma_tma_general.py tests/test_gpu_wgmma_tma_batched.py tests/test_gpu_wgmma_tma_tf32.py \
    -k "epilogue or k0 or K0 or zero" > "$OUT/s38a_k0.log" 2>&1; echo "K = 0 tests rc $?"; tail -1 "$OUT/s38a_k0.log"
timeout 60 python3 benchmarks/host_overhead.py --calls 500 > "$OUT/s38a_host_after.txt" 2>&1; cat "$OUT/s38a_host_after.txt"
timeout 90 python3 scripts/variants_s37/probe_replay_copies.py > "$OUT/s38a_replay_copies.md" 2>&1
echo "probe rc $?"; cat "$OUT/s38a_replay_copies.md"
timeout 100 python3 scripts/variants_s35/probe_batched_draw.py 3505 16 > "$OUT/s38a_draw_3505.md" 2>&1
echo "draw rc $?"; grep -E "geometric" "$OUT/s38a_draw_3505.md"
NSHARD=8 SHARD_TIMEOUT=${TESTS_S:-200} scripts/gpu_shards.sh s38a_tests \
    tests/test_gpu_replay.py tests/test_gpu_layouts.py tests/test_gpu_core.py tests/test_gpu_gemm.py \
    tests/test_gpu_wgmma_tma_batched.py tests/test_interop_gpu.py tests/test_robustness_gpu.py
