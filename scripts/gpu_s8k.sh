#!/usr/bin/env bash
# Eighth session: the float32 long-K shapes retuned with wgmma and wgmma_split_k now that a split
# product's reduce is cheap; the suite's long-K class twice with each database (scripts/gpu_retune.sh).
#   bash scripts/gpu_s8k.sh
set -u
cd "$(dirname "$0")/.."
scripts/gpu_retune.sh float32 wgmma,wgmma_split_k "long K" 1024x32x32768 32x1024x32768 256x256x131072
