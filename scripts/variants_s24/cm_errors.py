"""The shipped cost model's errors (predicted / measured) on the s23g timings against features of
each candidate (twenty-fourth session, CPU only).

    PYTHONPATH=. python3 scripts/variants_s24/cm_errors.py [odd|even] > /tmp/cm_fit/errors.txt

Per (shape, candidate): log(pred/meas), and the same less the shape's mean ("rel": what moves the
ranking), with tile, blocks per SM, blocks, slots, waves, k-steps per block, split, pairs, the
model's bound and its fixed part. Then the rel error grouped by feature, and a least-squares fit of
rel against a few candidate terms (per-block/per-k-step costs).
"""
from __future__ import annotations

import collections
import math
import sys

from tiled_matmul import costmodel, dispatch
from tiled_matmul.configs import cdiv
from tiled_matmul.device import device_limits

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from cm_eval import load_s23g  # noqa: E402


def features(cfg, M, N, K, p):
    lim = device_limits(None)
    bm, bn = cfg.tile_mn
    split = getattr(cfg, "split_k", 1) or 1
    slots = lim.sm_count * p.blocks_per_sm
    kdepth = K / split if cfg.STRATEGY == "dmma_split_k" else K
    return dict(tile=f"{bm}x{bn}x{cfg.tile_k}", area=bm * bn, per_sm=p.blocks_per_sm, blocks=p.blocks, slots=slots,
                waves=p.blocks / slots, ksteps=math.ceil(kdepth / cfg.tile_k), split=split if cfg.STRATEGY != "dmma" else 1,
                pairs=getattr(cfg, "pairs", 0), strat=cfg.STRATEGY, term=p.term, q=p.wave_factor,
                fixed_us=(p.launch_ms + p.reduce_ms + p.rounds_ms) * 1e3, pred_us=p.ms * 1e3,
                rounds=cdiv(cdiv(p.blocks, lim.sm_count), p.blocks_per_sm))


def rows(column: str):
    eff = dispatch.measured_efficiencies()
    out = []
    for name in ("s23g_elem_2311", "s23g_elem_2312"):
        for shape, cands in load_s23g(name, column).items():
            recs = []
            for k, (cfg, ms) in cands.items():
                p = costmodel.predict(cfg, *shape, "float64", efficiencies=eff)
                f = features(cfg, *shape, p)
                f.update(shape=shape, meas_us=ms * 1e3, err=math.log(p.ms / ms), seed=name[-4:], cfg=cfg)
                recs.append(f)
            mu = sum(r["err"] for r in recs) / len(recs)
            for r in recs:
                r["rel"] = r["err"] - mu
            out += recs
    return out


def main():
    column = sys.argv[1] if len(sys.argv) > 1 else "odd"
    rs = rows(column)
    print(f"{'shape':16s} {'strategy':12s} {'tile':10s} {'P':>1s} {'sp':>2s} {'bps':>3s} {'blk':>5s} {'waves':>5s} {'Q':>5s} "
          f"{'kst':>4s} {'rnd':>3s} {'term':7s} {'pred':>7s} {'meas':>7s} {'err':>6s} {'rel':>6s}")
    for r in sorted(rs, key=lambda r: (r["seed"], r["shape"], r["meas_us"])):
        print(f"{'x'.join(map(str, r['shape'])):16s} {r['strat']:12s} {r['tile']:10s} {r['pairs']:1d} {r['split']:2d} "
              f"{r['per_sm']:3d} {r['blocks']:5d} {r['waves']:5.2f} {r['q']:5.2f} {r['ksteps']:4d} {r['rounds']:3d} {r['term']:7s} "
              f"{r['pred_us']:7.1f} {r['meas_us']:7.1f} {r['err']:+6.3f} {r['rel']:+6.3f}")
    for feat in ("tile", "per_sm", "strat", "split", "pairs", "term", "rounds"):
        g = collections.defaultdict(list)
        for r in rs:
            g[r[feat]].append(r["rel"])
        print(f"\nrel error by {feat}: " + "; ".join(f"{k}: {sum(v)/len(v):+.3f} (n={len(v)})" for k, v in sorted(g.items(), key=lambda kv: str(kv[0]))))
    # rel error vs waves and ksteps buckets
    for feat, edges in (("waves", (0.5, 1, 1.5, 2, 3, 5, 1e9)), ("ksteps", (16, 32, 64, 128, 256, 1e9)),
                        ("meas_us", (30, 60, 120, 250, 500, 1e9))):
        g = collections.defaultdict(list)
        for r in rs:
            g[next(e for e in edges if r[feat] <= e)].append(r["rel"])
        print(f"rel error by {feat} (<=): " + "; ".join(f"{k}: {sum(v)/len(v):+.3f} (n={len(v)})" for k, v in sorted(g.items())))


if __name__ == "__main__":
    main()
