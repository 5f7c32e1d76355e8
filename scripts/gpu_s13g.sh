#!/usr/bin/env bash
# Thirteenth session (H100): dmma_tail's GPU tests, the cost model off the suite with it
# (validate_cost_model.py, the twelfth session's 14 float64 shapes and six more of a few waves).
#   bash scripts/gpu_s13g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=3 SHARD_TIMEOUT=220 bash scripts/gpu_shards.sh tail tests/test_gpu_dmma_tail.py
SHAPES=1001x1001x1001:float64,896x896x896:float64,960x960x960:float64,1280x768x1024:float64,1000x1000x4000:float64,700x1500x1000:float64,640x4000x4000:float64,513x8191x8191:float64,200x7000x200:float64,1500x1500x1500:float64,2500x2500x2500:float64,1200x900x1100:float64,1536x1536x1536:float64,300x300x3000:float64,3000x3000x3000:float64,2000x2000x2000:float64,6000x4000x2000:float64,1280x1280x1280:float64,3500x2500x3000:float64,10000x10000x2000:float64
timeout 300 python3 scripts/validate_cost_model.py --top 3 --shapes "$SHAPES" > "$OUT/vcm.log" 2>&1; echo "== vcm rc $?"
grep -E "^\| [0-9]+×[0-9]+×[0-9]+ \| float64 \| [0-9.]+ \|" "$OUT/vcm.log"; grep -E "^- (model|dispatch)" "$OUT/vcm.log"
grep -E "dmma_tail" "$OUT/vcm.log" | cut -c1-170 | head -30
