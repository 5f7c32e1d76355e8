#!/bin/bash
# fifteenth session: gemv_ax_mma (rung 22) on the GPU: its tests, the half auto tests, memcheck over
# its sanitize cases, and the column-count probe against gemv_ax_half and cuBLAS.
#   bash scripts/gpu_s15e.sh [tests|sanitize|probe|elem|quick]...
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
what=${*:-tests sanitize probe}
for w in $what; do
  case $w in
    tests) NSHARD=4 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh s15e_tests tests/test_gpu_gemv_ax_mma.py \
             tests/test_gpu_half.py tests/test_gpu_gemv_half.py -k "not torch" ;;
    sanitize) SAN_TIMEOUT=300 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py gemv_ax_mma 2>&1 | tail -5 ;;
    quick) timeout 300 python3 scripts/variants_s15/probe_ax_cols.py quick > "$OUT/probe_ax_quick.txt" 2>&1; echo "quick rc $?"
           python3 - "$OUT/probe_ax_quick.txt" <<'PY'
import re, sys
cur = None
for line in open(sys.argv[1]):
    m = re.match(r'(\w+ \d+x\d+x\d+): cuBLAS', line)
    if m: cur = m.group(1); out = [cur]; continue
    m = re.match(r'\s+gemv_ax_mma (\{.*\})\s+([\d.]+) us\s+([\d.]+)x', line)
    if m: print(cur, m.group(1).replace("'", "")[:48], m.group(2), m.group(3))
PY
           ;;
    elem) timeout 300 python3 scripts/variants_s15/probe_ax_cols.py elem > "$OUT/probe_ax_elem.txt" 2>&1; echo "elem rc $?" ;;
    probe) timeout 400 python3 scripts/variants_s15/probe_ax_cols.py > "$OUT/probe_ax_cols.txt" 2>&1; echo "probe rc $?"
           grep -v "^    " "$OUT/probe_ax_cols.txt" | head -3; cat "$OUT/probe_ax_cols.txt" | cut -c1-110 | tail -150 ;;
  esac
done
