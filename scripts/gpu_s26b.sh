#!/bin/bash
# twenty-sixth session: the narrow wgmma tiles and transposed A·x in auto: their GPU tests, then
# the held-out probe (before / shipped / variants, against cuBLAS FP32). A cubin cache filled on
# the CPU (scripts/variants_s26/precompile.py scratch/cubin_s26) is used where carried.
#   bash scripts/gpu_s26b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s26 ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s26; fi
before=$(ls ${CUPY_CACHE_DIR:-/nonexistent}/tiled_matmul 2>/dev/null | wc -l)
python3 -c "from cupy.cuda import nvrtc; print('nvrtc', nvrtc.getVersion())"
timeout 90 python3 -m pytest -q -x tests/test_gpu_narrow.py -p no:cacheprovider > "$OUT/tests.log" 2>&1
echo "== tests rc $?"; tail -8 "$OUT/tests.log"
timeout 130 python3 scripts/variants_s26/probe_heldout.py --seed 2601 --count 6 > "$OUT/heldout_2601.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/heldout_2601.md" | tail -12
echo "cubins before $before after $(ls ${CUPY_CACHE_DIR:-/nonexistent}/tiled_matmul 2>/dev/null | wc -l)"
