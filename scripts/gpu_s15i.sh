#!/bin/bash
# fifteenth session: the half sweep's lowest rows against smaller tiles and other splits
#   bash scripts/gpu_s15i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 500 python3 scripts/variants_s15/probe_half_small.py > "$OUT/probe_half_small.txt" 2>&1; echo "rc $?"
python3 - "$OUT/probe_half_small.txt" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    if re.match(r'\w+ \d+x\d+x\d+: cuBLAS', line) or 'WRONG' in line or 'Error' in line:
        print(line.rstrip()[:140]); continue
    m = re.match(r'\s+(\S+) (\{.*\})\s+([\d.]+) us\s+([\d.]+)x', line)
    if m: print("   ", m.group(1)[:26], m.group(2).replace("'", "").replace(" ", "")[:70], m.group(3), m.group(4))
PY
