"""Scores the patched cost model (/tmp/cm_fit/model.patch applied to a copy of costmodel.py, loaded
over the module in this process only) against the shipped one on every dataset of cm_eval.py, its
float64 suite picks, and how often its global first pick over all candidates was never timed
(twenty-fourth session, CPU only).

    PYTHONPATH=. python3 scripts/variants_s24/cm_patched.py [/tmp/cm_fit/tree/b/tiled_matmul/costmodel.py]
"""
from __future__ import annotations

import sys

from tiled_matmul import costmodel, dispatch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from cm_eval import all_datasets, cfg_key, load_s23f, make_cfg, score, _loose  # noqa: E402

ORIG = costmodel.predict


def load_patched(path):
    ns = dict(costmodel.__dict__)
    exec(compile(open(path).read(), path, "exec"), ns)
    return ns["predict"]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/cm_fit/tree/b/tiled_matmul/costmodel.py"
    new_predict = load_patched(path)
    eff = dispatch.measured_efficiencies()
    shipped = lambda c, M, N, K, e: ORIG(c, M, N, K, "float64", efficiencies=e).ms  # noqa: E731
    new = lambda c, M, N, K, e: new_predict(c, M, N, K, "float64", efficiencies=e).ms  # noqa: E731
    ds = all_datasets()
    print(f"{'dataset':18s} {'n':>3s} {'shipped':>22s} {'patched':>22s}   new global pick never timed")
    for name, data in ds.items():
        a, b = score(data, shipped, eff), score(data, new, eff)
        untimed = 0
        if name.startswith("s23g"):
            for s, cands in data.items():
                g = min(costmodel.candidate_configs(*s, "float64"), key=lambda c: new(c, *s, eff))
                untimed += cfg_key(g) not in cands
        print(f"{name:18s} {len(data):3d} {a['geo']:.3f} {a['worst']:.3f} {a['within']:2d}/{a['n']:<2d}     "
              f"{b['geo']:.3f} {b['worst']:.3f} {b['within']:2d}/{b['n']:<2d}   {untimed if name.startswith('s23g') else ''}")
    for name in ("s23f_odd_picks_2203", "s23f_odd_picks_2204"):
        d = load_s23f(name)
        n_r0 = n_best = n_other = 0
        for s, row in d.items():
            cands = costmodel.candidate_configs(*s, "float64")
            g_new = min(cands, key=lambda c: new(c, *s, eff))
            g_old = min(cands, key=lambda c: shipped(c, *s, eff))
            if _loose(cfg_key(g_new)) == _loose(cfg_key(make_cfg(*row["best_cfg"]))):
                n_best += 1
            elif _loose(cfg_key(g_new)) == _loose(cfg_key(g_old)):
                n_r0 += 1
            else:
                n_other += 1
        print(f"{name}: new global pick = the best of top 8 on {n_best}, = rank 0 (shipped pick) on {n_r0}, "
              f"another config (not timed) on {n_other} of {len(d)}")


if __name__ == "__main__":
    main()
