#!/usr/bin/env bash
# Twelfth session (H100): dmma's 128 x 64 x 32 tile in 8 warps of 32 x 32 (one block per SM) in
# the search space: its GPU tests, and the cost model off the suite (validate_cost_model.py), where
# the model now ranks it first on shapes of about one wave of 128 x 64 tiles.
#   bash scripts/gpu_s12p.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh newtile tests/test_gpu_dmma.py tests/test_gpu_layouts.py \
    -k "bm128_bn64_bk32 or (dmma and layouts)"
SHAPES=1001x1001x1001:float64,896x896x896:float64,960x960x960:float64,1280x768x1024:float64,1000x1000x4000:float64,700x1500x1000:float64,640x4000x4000:float64,513x8191x8191:float64,200x7000x200:float64,1500x1500x1500:float64,2500x2500x2500:float64,1200x900x1100:float64,1536x1536x1536:float64,300x300x3000:float64
timeout 300 python3 scripts/validate_cost_model.py --top 3 --shapes "$SHAPES" > "$OUT/vcm.log" 2>&1; echo "== vcm rc $?"
grep -E "^\| [0-9]+×[0-9]+×[0-9]+ \| float64 \| [0-9.]+ \|" "$OUT/vcm.log"; grep -E "^- (model|dispatch)" "$OUT/vcm.log"
grep -E "bk=32 .*wm=32|model#1" "$OUT/vcm.log" | grep -E "1001|896|960|1280|1000×1000|700" | cut -c1-160
