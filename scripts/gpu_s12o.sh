#!/usr/bin/env bash
# Twelfth session (H100): the cost model off the suite, float64, with and without the tuner's
# measured efficiencies of this session's retunes (variants_s12/efficiency_db.json as the user
# database: efficiencies only, no entries): does the model pick better with them?
#   bash scripts/gpu_s12o.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SHAPES=1001x1001x1001:float64,640x4000x4000:float64,513x8191x8191:float64,200x7000x200:float64,1500x1500x1500:float64,3000x3000x3001:float64,2500x2500x2500:float64,1200x900x1100:float64,6000x6000x500:float64,300x300x3000:float64,1536x1536x1536:float64,896x896x896:float64
timeout 280 python3 scripts/validate_cost_model.py --top 3 --shapes "$SHAPES" > "$OUT/vcm_base.log" 2>&1; echo "== base rc $?"
TILED_MATMUL_TUNE_DB=scripts/variants_s12/efficiency_db.json timeout 280 python3 scripts/validate_cost_model.py --top 3 \
    --shapes "$SHAPES" > "$OUT/vcm_eff.log" 2>&1; echo "== eff rc $?"
for f in base eff; do echo "-- $f"; grep -E "^\| [0-9]+×[0-9]+×[0-9]+ \| float64 \| [0-9.]+ \|" "$OUT/vcm_$f.log"; grep -E "^- (model|dispatch)" "$OUT/vcm_$f.log"; done
