#!/bin/bash
# twenty-fourth session: dispatch.MODEL_TILES on the GPU. The GPU tests that run auto on float32
# (the new model-tiles cases: plain, batched, A transposed; the suite; tune; layouts; precision;
# core), then calls that need the cp.async rungs timed (scripts/variants_s24/probe_f32_plain.py).
#   bash scripts/gpu_s24f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_suite.py tests/test_gpu_tune.py \
    "tests/test_gpu_layouts.py::test_auto_reads_layouts" tests/test_gpu_precision.py -k "model_tiles or auto" \
    > "$OUT/tests_model_tiles.log" 2>&1
echo "== tests rc $?"; tail -5 "$OUT/tests_model_tiles.log"
timeout 200 python3 scripts/variants_s24/probe_f32_plain.py > "$OUT/f32_plain.txt" 2>&1
echo "== plain rc $?"; cut -c1-190 "$OUT/f32_plain.txt"
