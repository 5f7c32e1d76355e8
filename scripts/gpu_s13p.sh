#!/usr/bin/env bash
# Thirteenth session (H100), the final code: the cost model off the suite (validate_cost_model.py)
# on gpu_s13g.sh's 20 float64 shapes and four of gpu_s13n.sh's.
#   bash scripts/gpu_s13p.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SHAPES=1001x1001x1001:float64,896x896x896:float64,960x960x960:float64,1280x768x1024:float64,1000x1000x4000:float64,700x1500x1000:float64,640x4000x4000:float64,513x8191x8191:float64,200x7000x200:float64,1500x1500x1500:float64,2500x2500x2500:float64,1200x900x1100:float64,1536x1536x1536:float64,300x300x3000:float64,3000x3000x3000:float64,2000x2000x2000:float64,6000x4000x2000:float64,1280x1280x1280:float64,3500x2500x3000:float64,10000x10000x2000:float64,4000x4000x2000:float64,2000x5000x8000:float64,1000x4000x2000:float64,4000x3000x2000:float64
timeout 400 python3 scripts/validate_cost_model.py --top 3 --shapes "$SHAPES" > "$OUT/vcm.log" 2>&1; echo "== vcm rc $?"
grep -E "^\| [0-9]+×[0-9]+×[0-9]+ \| float64 \| [0-9.]+ \|" "$OUT/vcm.log"; grep -E "^- (model|dispatch)" "$OUT/vcm.log"
