#!/usr/bin/env bash
# Twelfth session (H100): dmma's fragments loaded ahead (the working tree, 'new') against the
# committed loop (BASE_PATCH reversed: 'base'; EXTRA='name=patch ...' adds the base so patched), float64 auto and fixed configs,
# alternating rounds with bits compared; then ncu's kernel time and DMMA-pipe use at 4096^3 and 768^3.
#   [VARIANTS=base,pipe,new BASE_PATCH=... EXTRA=pipe=variants_s12/dmma_frag_pipe.patch] bash scripts/gpu_s12c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
VARIANTS=${VARIANTS:-base,new}
rm -rf /tmp/r; mkdir -p /tmp/r/base /tmp/r/new
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/base/
cp -r pyproject.toml tiled_matmul kernels scripts /tmp/r/new/
patch -s -R -p1 -d /tmp/r/base < "${BASE_PATCH:-scripts/variants_s12/dmma_frag_pipe.patch}" || echo "patch failed"
for v in ${EXTRA:-}; do  # NAME=PATCH: the base with that patch applied
    mkdir -p "/tmp/r/${v%%=*}"; cp -r /tmp/r/base/* "/tmp/r/${v%%=*}/"
    patch -s -p1 -d "/tmp/r/${v%%=*}" < "${v#*=}" || echo "patch ${v} failed"
done
timeout 420 python3 scripts/variants_s12/compare.py /tmp/r "$VARIANTS" 3 \
    768x768x768 1024x1024x1024 640x640x640 512x512x512 256x256x256 2048x2048x2048 4096x4096x4096 \
    5000x3000x1000 8192x8192x128 3001x2999x3007 16384x64x4096 128x8192x8192 64x64x65536 256x256x131072 1001x1001x1001 \
    768x768x768:dmma:bm=32,bn=64,bk=32,wm=16,wn=32,stages=3,min_blocks=2 \
    1024x1024x1024:dmma:bm=128,bn=64,bk=32,wm=32,wn=32,stages=3,min_blocks=1 \
    1024x1024x1024:dmma:bm=32,bn=64,bk=16,wm=16,wn=32,stages=4,min_blocks=4 \
    1024x1024x1024:dmma:bm=64,bn=64,bk=16,wm=32,wn=16,stages=4,min_blocks=2 \
    > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
for s in 4096 768; do
    for v in ${VARIANTS//,/ }; do
        (cd "/tmp/r/$v" && PYTHONPATH=. timeout 100 ncu --kernel-name regex:dmma --launch-skip 2 --launch-count 1 \
            --metrics gpu__time_duration.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct \
            python3 scripts/probe_ncu_pair.py ${s}x${s}x${s} --calls 3 2>&1 | grep -E "^\s+(gpu__|sm__|smsp__)" | sed "s/^/$s $v /")
    done
done | tee "$OUT/ncu.log"
tail -22 "$OUT/compare.log"
