#!/usr/bin/env bash
# Ninth session: wgmma_tma_tf32 tf32 variants (commit 805dd19's kernels/, git archive: run from a
# git checkout, with a patch of scripts/variants_s9/) v0 (as committed), v3 (every B box, Veltkamp
# rounding), v4 (every B box, + half an ulp with the tensor core's truncation, Inf/NaN by two
# maxima): outputs bit for bit and errors, then 8192³ against cuBLAS TF32 in alternating blocks,
# three rounds, then issue 13's benchmark on v0 and v4.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for v in v0 v3 v4; do
    rm -rf /tmp/r/$v; mkdir -p /tmp/r/$v
    cp -r pyproject.toml tiled_matmul scripts tests /tmp/r/$v/
    git archive 805dd19 kernels | tar -x -C /tmp/r/$v
    [ $v = v0 ] || patch -s -p1 -d /tmp/r/$v < scripts/variants_s9/$v.patch
done
timeout 200 python3 scripts/variants_s9/compare.py /tmp/r v0,v3,v4 2>&1 | tee "$OUT/compare.log"
echo "== compare $(( $(date +%s) - T0 )) s"
for round in 1 2 3; do
    for v in v0 v3 v4; do
        (cd /tmp/r/$v && PYTHONPATH=. timeout 100 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32 --size 8192 \
            --blocks 6 --calls 200 2>&1 | sed "s/^/$v tf32 r$round /") >> "$OUT/clock.log"
    done
done
echo "== clocks $(( $(date +%s) - T0 )) s"
for v in v0 v4; do
    (cd /tmp/r/$v && PYTHONPATH=. timeout 150 python3 scripts/bench_tf32tma.py --sizes 4096,8192 2>&1 \
        | grep -E "^\|" | grep -E "cuBLAS TF32|bm256_bn128_stages4_group_m8_passes1" | sed "s/^/$v /") | tee -a "$OUT/bench.log"
done
echo "== bench $(( $(date +%s) - T0 )) s"
python3 scripts/probe_clock.py --summary "$OUT/clock.log"
