#!/bin/bash
# thirtieth session: float32 efficiencies measured on MODEL_TILES-class shapes (seed 3001), then
# auto with them against auto as shipped on held-out shapes (seed 3002).
# Cache (CPU): probe_f32_eff.py train --seed 3001 --count 16 --compile-only scratch/cubin_s30c (and held --seed 3002)
#   bash scripts/gpu_s30b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30c
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 330 python3 scripts/variants_s30/probe_f32_eff.py train --seed 3001 --count 16 --db "$OUT/s30b_eff_db.json" \
  --out "$OUT/s30b_eff_train.jsonl" > "$OUT/s30b_eff_train.txt" 2>&1
echo "train rc $?"; tail -45 "$OUT/s30b_eff_train.txt" | cut -c1-200
[ -f "$OUT/s30b_eff_db.json" ] || exit 1
timeout 200 python3 scripts/variants_s30/probe_f32_eff.py held --seed 3002 --count 16 --db "$OUT/s30b_eff_db.json" \
  > "$OUT/s30b_eff_held_3002.md" 2>&1
echo "held rc $?"; grep -E "picks move" "$OUT/s30b_eff_held_3002.md"; sed -n '/geometric/,$p' "$OUT/s30b_eff_held_3002.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /auto|after/){printf "%-16s %-6s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,60)}' "$OUT/s30b_eff_held_3002.md"
