#!/bin/bash
# twenty-first session, final: auto on random float64 shapes with partial tiles, HEAD (_old/) against
# the working tree (probe_f64_random.py, one process each); then the GPU tests of dmma's layouts,
# epilogues and the split rung's auto checks on the final code.
#   bash scripts/gpu_s21h.sh
# _old/ is HEAD's tree before the change (fc7e9d0), made untracked and not ignored so that the
# device run carries it: mkdir _old && git archive fc7e9d0 tiled_matmul kernels pyproject.toml | tar -x -C _old
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for tree in _old .; do
  tag=$([ "$tree" = . ] && echo new || echo old)
  PYTHONPATH=$tree timeout 80 python3 scripts/variants_s21/probe_f64_random.py 2101 16 2 > "$OUT/random_${tag}.txt" 2>&1
  echo "== $tag rc $?"; tail -1 "$OUT/random_${tag}.txt"
done
paste <(cut -c1-60 "$OUT/random_old.txt") <(awk '{print $NF}' "$OUT/random_new.txt") | head -17
export PYTHONPATH=.
timeout 200 python3 -m pytest -q -m gpu -x tests/test_gpu_layouts.py -k dmma > "$OUT/tests_layouts.log" 2>&1
echo "layouts rc $?"; tail -1 "$OUT/tests_layouts.log"
timeout 120 python3 -m pytest -q -m gpu -x tests/test_gpu_gemm.py tests/test_gpu_fast.py tests/test_gpu_core.py \
    tests/test_gpu_dmma_split_k.py -k "dmma and (gemm or fast or core or heuristic or auto_on or batches)" > "$OUT/tests_more.log" 2>&1
echo "more rc $?"; tail -1 "$OUT/tests_more.log"
