"""Measured float32 efficiencies for the cost model where it picks float32 tiles (thirtieth session).

`dispatch.MODEL_TILES` hands float32 outputs under one wave of 128 x 128 tiles to the cost model
among wgmma, wgmma_split_k and wgmma_tma_tf32, and the shipped database holds no float32
efficiency, so every one of those candidates is priced at its rung's default (wgmma_split_k
tf32x3: 0.43, from 8192^3). On long K the 128 x 128 tile runs nearer 0.3 there (twenty-ninth
session, s29d_long_k_2901.md: 628x181x14481 predicted 91 us, measured 128).

train: every candidate the model weighs among those rungs (costmodel.candidate_configs) on `count`
shapes of the class, each checked and timed as the tuner does (tuner.measure_candidate: bare
launch, L2 flushed, medians); the efficiency each time shows (tuner.efficiency_samples), per config
key and family, geometric means over the shapes, written as a tuning database's efficiency section
(--db) and a JSON lines file of every timing (--out).

held: fresh shapes of the class; auto's pick as shipped ("auto") against auto's pick with the
trained efficiencies in the user database ("after"), cuBLAS FP32 and a copy in 3 alternating
rounds (_probe.auto_against: every call tm.check'ed first).

    PYTHONPATH=. python3 scripts/variants_s30/probe_f32_eff.py train --seed 3001 --count 16 --db DB --out F.jsonl
    PYTHONPATH=. python3 scripts/variants_s30/probe_f32_eff.py held --seed 3002 --count 16 --db DB
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU, both modes)
"""
import argparse
import json
import math
import os
import sys
from unittest import mock

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import choice_under, log_uniform  # noqa: E402

from tiled_matmul import costmodel, dispatch  # noqa: E402

RUNGS = dispatch.MODEL_TILES["float32"][1]


def draw(seed: int, count: int) -> list:
    """`count` float32 shapes whose auto pick is the cost model's among RUNGS (MODEL_TILES: an
    output under one wave of 128 x 128 tiles), M and N 9-3000, K 32-30000 log-uniform, at most 40
    GFLOP, not run transposed."""
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N, K = log_uniform(rs, 9, 3000), log_uniform(rs, 9, 3000), log_uniform(rs, 32, 30000)
        if 2 * M * N * K > 40e9:
            continue
        c = dispatch.choose(M, N, K, "float32")
        if c.source == "model" and c.strategy in RUNGS and c.transposed is None:
            out.append((M, N, K))
    return out


def model_candidates(M, N, K) -> list:
    return costmodel.candidate_configs(M, N, K, "float32", "auto", None, RUNGS)


def train(shapes, db: str, out: str) -> None:
    import cupy

    from tiled_matmul import registry, tunedb, tuner
    from tiled_matmul.measure import make_inputs
    from tiled_matmul.timing import L2Flusher

    dev = cupy.cuda.runtime.getDevice()
    flush = L2Flusher()
    plan = dict(repeat=7, budget_s=0.05, warmup=2)
    logs: dict = {}
    with open(out, "w") as f:
        for M, N, K in shapes:
            sets = make_inputs((M, N, K), "float32", seed=M * 7 + N * 13 + K)
            recs, best = [], None
            for cfg in model_candidates(M, N, K):
                rec = tuner.measure_candidate(cfg.STRATEGY, cfg, sets, flush, best, 10.0, plan, "auto")
                recs.append(rec)
                if rec.ok and (best is None or rec.median_ms < best.median_ms):
                    best = rec
            eff = tuner.efficiency_samples(recs, (M, N, K), "float32", dev)
            for key, e in eff.items():
                logs.setdefault(key, []).append(e)
            auto = dispatch.choose(M, N, K, "float32")
            rows = [dict(shape=[M, N, K], strategy=r.strategy, params=r.params, status=r.status,
                         ms=r.median_ms, pred_ms=costmodel.predict(registry.get(r.strategy).make_config(**r.params),
                                                                  M, N, K, "float32").ms)
                    for r in recs]
            for r in rows:
                f.write(json.dumps(r) + "\n")
            ok = [r for r in rows if r["status"] == "ok" and r["ms"]]
            best_r = min(ok, key=lambda r: r["ms"])
            mine = [r for r in ok if r["strategy"] == auto.strategy
                    and registry.get(r["strategy"]).make_config(**r["params"]) ==
                    registry.get(auto.strategy).make_config(**auto.params)]
            print(f"{M}x{N}x{K}: best {best_r['strategy']} {best_r['params']} {best_r['ms'] * 1e3:.1f} us; "
                  f"auto {auto.strategy} {auto.params} "
                  f"{(mine[0]['ms'] * 1e3) if mine else float('nan'):.1f} us", flush=True)
            del sets
    means = {k: round(math.exp(sum(map(math.log, v)) / len(v)), 4) for k, v in logs.items()}
    ident = tunedb.device_id(dev)
    tunedb.save_entries({}, ident, db, efficiency=means)
    doc = json.loads(open(db).read())
    for sec in doc["devices"].values():
        for key, rec in sec.get("efficiency", {}).items():
            if key in logs:
                rec["samples"] = len(logs[key])
    with open(db, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    print(f"{len(means)} efficiencies over {len(shapes)} shapes -> {db}")
    for k in sorted(means):
        print(f"  {k}: {means[k]} ({len(logs[k])})")


def after_pick(M, N, K, db: str) -> tuple:
    """auto's pick with `db` as the user database (its efficiencies over the shipped ones)."""
    c = choice_under(M, N, K, "float32", mock.patch.dict(os.environ, {"TILED_MATMUL_TUNE_DB": db}))
    return c.strategy, dict(c.params)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("train", "held"))
    ap.add_argument("--seed", type=int, default=3001)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--db", required=False, default="")
    ap.add_argument("--out", default="f32_eff_train.jsonl")
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count)
    if args.compile_only:
        from _probe import precompile

        from tiled_matmul import api

        todo = [(cfg.STRATEGY, cfg) for s in shapes for cfg in model_candidates(*s)]
        todo += [(k.strategy, k.config) for k in (api.kernel("auto").kernel_for(*s, "float32") for s in shapes)]
        print(precompile(args.compile_only, todo), "kernels;", shapes)
        return
    print(shapes)
    if args.mode == "train":
        train(shapes, args.db, args.out)
        return
    from _probe import auto_against

    picks = {s: after_pick(*s, args.db) for s in shapes}
    moved = sum(1 for s in shapes if picks[s] != (lambda c: (c.strategy, dict(c.params)))(dispatch.choose(*s, "float32")))
    print(f"{moved} of {len(shapes)} picks move")
    auto_against(shapes, lambda M, N, K: {"after": picks[(M, N, K)]}, "float32", args.seed)


if __name__ == "__main__":
    main()
