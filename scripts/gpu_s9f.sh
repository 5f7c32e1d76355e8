#!/usr/bin/env bash
# Ninth session: does tests/test_gpu_threads.py catch a launcher that threads share wrongly? Its
# wgmma_tma_tf32 and mixed cases on the code as it is ("none", which must pass) and on two
# mutants (scripts/variants_s9/mutation_*.patch: one argument buffer for every thread; C left
# out of the packed-argument key), each of which must fail.
#   bash scripts/gpu_s9f.sh
set -u
cd "$(dirname "$0")/.."
for m in none shared_buffer ready_key; do
    rm -rf /tmp/m/$m; mkdir -p /tmp/m/$m
    cp -r pyproject.toml tiled_matmul kernels tests /tmp/m/$m/
    [ $m = none ] || patch -s -p1 -d /tmp/m/$m < scripts/variants_s9/mutation_$m.patch
    (cd /tmp/m/$m && PYTHONPATH=. timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu_threads.py \
        -k "wgmma_tma_tf32 or mixing" 2>&1 | grep -E "passed|failed|differs" | head -4 | sed "s/^/$m: /")
done
