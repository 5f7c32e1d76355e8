#!/usr/bin/env bash
# Ninth session: tf32x3's small parts left for the tensor core to clear (split_tf32_tc,
# scripts/variants_s9/v5.patch; "base" is the checkout with that patch reversed): outputs bit for
# bit and errors, 4096³ and 8192³ against cuBLAS FP32 in alternating blocks (three rounds), ncu's
# instruction count, issue 13's benchmark on each.
#   bash scripts/gpu_s9e.sh          (from a checkout that has v5 applied)
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
for v in base v5; do
    rm -rf /tmp/r/$v; mkdir -p /tmp/r/$v
    cp -r pyproject.toml tiled_matmul scripts tests kernels /tmp/r/$v/
done
patch -s -R -p1 -d /tmp/r/base < scripts/variants_s9/v5.patch
timeout 200 python3 scripts/variants_s9/compare.py /tmp/r base,v5 tf32x3 2>&1 | tee "$OUT/compare.log"
echo "== compare $(( $(date +%s) - T0 )) s"
for round in 1 2 3; do
    for v in base v5; do
        for n in 4096 8192; do
            (cd /tmp/r/$v && PYTHONPATH=. timeout 100 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32x3 --size $n \
                --blocks 4 --calls $(( n == 4096 ? 300 : 60 )) 2>&1 | sed "s/^/$v tf32x3-$n r$round /") >> "$OUT/clock.log"
        done
    done
done
echo "== clocks $(( $(date +%s) - T0 )) s"
for v in base v5; do
    (cd /tmp/r/$v && PYTHONPATH=. timeout 100 ncu --kernel-name regex:wgmma_tma --launch-skip 2 --launch-count 1 \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
        python3 scripts/probe_clock.py --impl ours --mode tf32x3 --size 4096 --blocks 1 --calls 3 2>&1 \
        | grep -E "^\s+(gpu__|smsp__)" | sed "s/^/$v /") | tee -a "$OUT/ncu.log"
done
for v in base v5 base v5; do
    (cd /tmp/r/$v && PYTHONPATH=. timeout 150 python3 scripts/bench_tf32tma.py --sizes 4096,8192 2>&1 \
        | grep -E "^\|" | grep -E "cuBLAS FP32|bm128_bn128_stages4_group_m8_passes3" | sed "s/^/$v /") | tee -a "$OUT/bench.log"
done
echo "== bench $(( $(date +%s) - T0 )) s"
python3 scripts/probe_clock.py --summary "$OUT/clock.log"
