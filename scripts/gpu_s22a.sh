#!/bin/bash
# twenty-second session, first device call: dmma's pairs layout against the layout before it on
# float64 shapes of every kind (probe_pairs.py), the misaligned-operand kernel's loop ahead or not
# (_alt/: the working tree with PAIRS_AHEAD taking load_interior_elem too; untracked, not ignored),
# and the partial-tile GPU test edited after its last run (1e1f79d).
#   bash scripts/gpu_s22a.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
timeout 150 python3 -m pytest -q -m gpu -x tests/test_gpu_dmma.py -k partial_tiles > "$OUT/tests_partial.log" 2>&1
echo "== partial tests rc $?"; tail -3 "$OUT/tests_partial.log"
PYTHONPATH=. timeout 170 python3 scripts/variants_s22/probe_pairs.py 3 big > "$OUT/pairs_big.txt" 2>&1
echo "== big rc $?"
PYTHONPATH=. timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 odd > "$OUT/pairs_odd.txt" 2>&1
echo "== odd rc $?"
PYTHONPATH=_alt timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 odd > "$OUT/pairs_odd_alt.txt" 2>&1
echo "== odd alt rc $?"
PYTHONPATH=. timeout 80 python3 scripts/variants_s22/probe_pairs.py 3 small > "$OUT/pairs_small.txt" 2>&1
echo "== small rc $?"
for f in big odd odd_alt small; do echo "== $f"; grep -A30 "^shape" "$OUT/pairs_$f.txt"; grep -i "fail\|error" "$OUT/pairs_$f.txt" | head -5; done
