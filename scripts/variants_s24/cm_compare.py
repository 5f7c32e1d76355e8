"""Per shape, where a candidate term moves the pick among the measured candidates: the shipped and
the new pick, their measured times and the scores (twenty-fourth session, CPU only).

    PYTHONPATH=. python3 scripts/variants_s24/cm_compare.py [term] [c]
"""
from __future__ import annotations

import sys

from tiled_matmul import dispatch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from cm_eval import all_datasets, baseline, score  # noqa: E402
from cm_fit import TERMS, make_predictor  # noqa: E402


def short(k):
    import json
    st, p = k
    p = json.loads(p)
    s = f"{st} {p.get('bm')}x{p.get('bn')}x{p.get('bk')} w{p.get('wm')}x{p.get('wn')} s{p.get('stages')} mb{p.get('min_blocks')}"
    for x in ("pairs", "split_k", "group_m", "mma_k"):
        if x in p and not (x == "group_m" and p[x] == 8) and not (x == "mma_k" and p[x] == 8) and not (x == "pairs" and not p[x]):
            s += f" {x}={p[x]}"
    return s


def main():
    term = sys.argv[1] if len(sys.argv) > 1 else "fillepi"
    c = float(sys.argv[2]) if len(sys.argv) > 2 else 0.02
    eff = dispatch.measured_efficiencies()
    new = make_predictor(TERMS[term], c)
    for name, data in all_datasets().items():
        a, b = score(data, baseline, eff)["per"], score(data, new, eff)["per"]
        for s in data:
            if a[s][1] != b[s][1]:
                print(f"{name:16s} {'x'.join(map(str, s)):16s} {a[s][0]:.3f} -> {b[s][0]:.3f}   "
                      f"{short(a[s][1])} ({data[s][a[s][1]][1]*1e3:.1f} us) -> {short(b[s][1])} ({data[s][b[s][1]][1]*1e3:.1f} us)")


if __name__ == "__main__":
    main()
