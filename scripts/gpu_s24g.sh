#!/bin/bash
# twenty-fourth session: the batch re-pick for split-K picks (execute: matrices padded to whole
# tiles, stacked) on the GPU: the model-tiles tests, the batched and layout tests that run auto,
# then scripts/variants_s24/probe_f32_plain.py again.
#   bash scripts/gpu_s24g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_suite.py -k model_tiles > "$OUT/tests_model_tiles.log" 2>&1
echo "== model tiles rc $?"; tail -3 "$OUT/tests_model_tiles.log"
timeout 200 python3 -m pytest -q -p no:cacheprovider \
    tests/test_gpu_layouts.py::test_batched_transposed_operands tests/test_gpu_half.py::test_batched_and_mixed_dtypes \
    tests/test_gpu_dmma_split_k.py::test_batches_and_epilogues "tests/test_gpu_wgmma_tma_tf32.py::test_gemm_epilogues_run_on_this_kernel_batches_fall_back" \
    > "$OUT/tests_batch.log" 2>&1
echo "== tests rc $?"; tail -5 "$OUT/tests_batch.log"
timeout 150 python3 scripts/variants_s24/probe_f32_plain.py > "$OUT/f32_plain.txt" 2>&1
echo "== plain rc $?"; cut -c1-120 "$OUT/f32_plain.txt"
