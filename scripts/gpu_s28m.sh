#!/bin/bash
# twenty-eighth session: the s28 probes after their shape loop moved into variants_s28/_probe.py
# (auto_against), a small run each.
#   bash scripts/gpu_s28m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for a in "probe_short_k.py --count 1" "probe_tma_ragged.py --count 1" "probe_f64_mid.py --count 0 --top 2"; do
  f=${a%% *}
  timeout 150 python3 scripts/variants_s28/$a > "$OUT/s28m_${f%.py}.md" 2>&1
  echo "== $a rc $?"; grep "^#" "$OUT/s28m_${f%.py}.md" | head -3; sed -n '/geometric/,$p' "$OUT/s28m_${f%.py}.md" | head -4
done
