"""Offline evaluator of the cost model's picks among measured float64 candidates (twenty-fourth
session, CPU only).

    PYTHONPATH=. python3 scripts/variants_s24/cm_eval.py

For each shape of a dataset, restricted to the candidates that were timed there, the model's pick
is the argmin of its predicted time; score = best measured time / the pick's measured time.
Reports per dataset the geometric mean of the scores, the worst, and the count within 10% of
the best. The datasets:

* s23g_elem_2311 / _2312 (odd and even columns: the model's first 10 candidates on 14 odd shapes
  each, timed on the shape and on its even neighbour);
* s23f_odd_picks_2203 / _2204: only rank 0's and the best-of-top-8's times are there, so a shape
  scores only where the model picks one of those two configs ("rank0" or "best"); elsewhere the
  pick's time is unknown (counted as "unknown");
* older per-config float64 files (session17 shortk/split, session19 f64_*): timed on older
  kernels, a secondary check only.

`predictor` is any function (cfg, M, N, K, eff) -> ms; `baseline` is costmodel.predict.
"""
from __future__ import annotations

import collections
import json
import math
import re
import sys
from pathlib import Path

from tiled_matmul import costmodel, dispatch, registry

_SCRIPTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_SCRIPTS / "variants_s22"), str(_SCRIPTS / "variants_s23")]
import probe_pairs  # noqa: E402 (session22's dmma columns)
import probe_tail_pairs  # noqa: E402 (session23's dmma and dmma_tail columns)

ROOT = Path(__file__).resolve().parents[2]
RES = ROOT / "benchmarks/results/h100"

_cfg_cache: dict = {}


def make_cfg(strategy: str, params: dict):
    key = (strategy, json.dumps(params, sort_keys=True))
    if key not in _cfg_cache:
        _cfg_cache[key] = registry.get(strategy).make_config(**params)
    return _cfg_cache[key]


def cfg_key(cfg) -> tuple:
    return (cfg.STRATEGY, json.dumps(cfg.params(), sort_keys=True))


def load_s23g(name: str, column: str) -> dict:
    """{shape: {cfg_key: (cfg, ms)}} for the odd or even column."""
    out = collections.defaultdict(dict)
    for line in open(RES / "session23" / f"{name}.jsonl"):
        r = json.loads(line)
        if "params" not in r or r.get("failed"):
            continue
        M, N, K = r["shape"]
        shape = (M, N, K) if column == "odd" else (M, N + N % 2, K + K % 2)
        cfg = make_cfg(r["strategy"], r["params"])
        out[shape][cfg_key(cfg)] = (cfg, r[f"{column}_ms"])
    return dict(out)


def load_jsonl(path: Path, dtype: str = "float64") -> dict:
    out = collections.defaultdict(dict)
    for line in open(path):
        r = json.loads(line)
        if r.get("dtype", dtype) != dtype or r["strategy"] in ("cublas", "auto") or r.get("failed") or "ms" not in r:
            continue
        try:
            cfg = make_cfg(r["strategy"], r.get("params", {}))
        except Exception:
            continue
        k = cfg_key(cfg)
        shape = tuple(r["shape"])
        # repeated rows: keep the median-ish (min of repeats would favour noise)
        if k in out[shape]:
            out[shape][k] = (cfg, 0.5 * (out[shape][k][1] + r["ms"]))
        else:
            out[shape][k] = (cfg, r["ms"])
    return {s: c for s, c in out.items() if len(c) >= 2}


_PARAM = re.compile(r"(\w+)=(\d+)")


def load_s23f(name: str) -> dict:
    """{shape: {"cublas_us", "rank0", "best", "best_cfg"}}: rank0 and best as x cuBLAS."""
    out = {}
    for line in open(RES / "session23" / f"{name}.txt"):
        m = re.match(r"(\d+)x(\d+)x(\d+)\s+cuBLAS\s+([\d.]+) us\s+auto ([\d.]+)\s+rank0 ([\d.]+)\s+best ([\d.]+) \(rank (\d+): (\w+) (.*)\)", line)
        if not m:
            continue
        M, N, K = map(int, m.group(1, 2, 3))
        params = {k: int(v) for k, v in _PARAM.findall(m.group(10))}
        out[(M, N, K)] = dict(cublas_us=float(m.group(4)), rank0=float(m.group(6)), best=float(m.group(7)),
                              best_rank=int(m.group(8)), best_cfg=(m.group(9), params))
    return out


# the probes' own column tables (the columns of their printed tables, in order)
_S23A_COLS = {**{k: ("dmma", v) for k, v in probe_tail_pairs.DMMA.items()},
              **{k: ("dmma_tail", v) for k, v in probe_tail_pairs.TAIL.items()}}


def load_s23a(name: str) -> dict:
    """probe_tail_pairs.py's table (x cuBLAS per column) as {shape: {cfg_key: (cfg, ms)}}."""
    out = {}
    cols = list(_S23A_COLS)
    for line in open(RES / "session23" / f"{name}.txt"):
        m = re.match(r"(\d+)x(\d+)x(\d+)\s+([\d.]+)\s+([\d.]+)((?:\s+[\d.]+){7})\s*$", line)
        if not m:
            continue
        shape = tuple(map(int, m.group(1, 2, 3)))
        cub = float(m.group(4)) * 1e-3
        ratios = list(map(float, m.group(6).split()))
        d = {}
        for col, r in zip(cols, ratios):
            cfg = make_cfg(*_S23A_COLS[col])
            d[cfg_key(cfg)] = (cfg, cub / r)
        out[shape] = d
    return out


_S22_COLS = {**probe_pairs.CANDS, **probe_pairs.SMALL}


def load_s22(names: list[str]) -> dict:
    """probe_pairs.py's tables (session22, dmma configs x cuBLAS; the runs averaged) as
    {shape: {cfg_key: (cfg, ms)}}; the raw-probe columns are left out."""
    acc: dict = {}
    for name in names:
        cols = None
        for line in open(RES / "session22" / f"{name}.txt"):
            if line.startswith("shape"):
                cols = re.split(r"\s{2,}", line.strip())[3:]
                continue
            m = re.match(r"(\d+)x(\d+)x(\d+)\s+([\d.]+)\s+([\d.]+)\s+(.*)$", line)
            if not m or cols is None:
                continue
            shape = tuple(map(int, m.group(1, 2, 3)))
            cub = float(m.group(4)) * 1e-3
            for col, r in zip(cols, m.group(6).split()):
                if col not in _S22_COLS:
                    continue
                cfg = make_cfg("dmma", _S22_COLS[col])
                acc.setdefault(shape, {}).setdefault(cfg_key(cfg), (cfg, []))[1].append(cub / float(r))
    return {s: {k: (c, sum(v) / len(v)) for k, (c, v) in d.items()} for s, d in acc.items()}


def baseline(cfg, M, N, K, eff):
    return costmodel.predict(cfg, M, N, K, "float64", efficiencies=eff).ms


def score(data: dict, predictor, eff) -> dict:
    """Per shape: best/pick; summary geo mean, worst, within 10%."""
    per = {}
    for shape, cands in data.items():
        preds = {k: predictor(cfg, *shape, eff) for k, (cfg, _) in cands.items()}
        pick = min(preds, key=lambda k: preds[k])
        best = min(ms for _, ms in cands.values())
        per[shape] = (best / cands[pick][1], pick)
    s = [v[0] for v in per.values()]
    return dict(geo=math.exp(sum(map(math.log, s)) / len(s)), worst=min(s),
                within=sum(x >= 1 / 1.1 for x in s), n=len(s), per=per)


def score_s23f(data: dict, predictor, eff, rank_fn) -> dict:
    """Uses the full candidate ranking under `predictor`: the pick is scored only if it is rank0's
    config (the shipped model's first pick) or the best's config. rank_fn(shape) -> the shipped
    model's first config key."""
    s, unknown = [], 0
    for shape, d in data.items():
        M, N, K = shape
        cands = costmodel.candidate_configs(M, N, K, "float64")
        pick = min(cands, key=lambda c: predictor(c, M, N, K, eff))
        pk = cfg_key(pick)
        bk = cfg_key(make_cfg(*d["best_cfg"])) if d["best_cfg"] else None
        # best_cfg's params in the txt omit mma_k and group_m (defaults 8) -- compare loosely
        if _loose(pk) == _loose(bk):
            s.append(1.0)
        elif _loose(pk) == _loose(rank_fn(shape)):
            s.append(d["rank0"] / d["best"])
        else:
            unknown += 1
    geo = math.exp(sum(map(math.log, s)) / len(s)) if s else float("nan")
    return dict(geo=geo, worst=min(s) if s else float("nan"), within=sum(x >= 1 / 1.1 for x in s), n=len(s), unknown=unknown)


_LOOSE_DROP = ("mma_k", "group_m")


def _loose(k):
    if k is None:
        return None
    st, p = k
    p = {a: b for a, b in json.loads(p).items() if a not in _LOOSE_DROP}
    return st, json.dumps(p, sort_keys=True)


DATASETS_MAIN = [("s23g_2311", "s23g_elem_2311"), ("s23g_2312", "s23g_elem_2312")]
OLD_FILES = ["session17/shortk_float64.jsonl", "session17/split_float64.jsonl", "session19/f64_128x64.jsonl",
             "session19/f64_tiles.jsonl", "session19/f64_twocta.jsonl", "session19/f64_skinny.jsonl"]


def all_datasets() -> dict:
    ds = {}
    for label, name in DATASETS_MAIN:
        for col in ("odd", "even"):
            ds[f"{label}_{col}"] = load_s23g(name, col)
    ds["s23a_random"] = load_s23a("s23a_tail_pairs_random")
    ds["s23a_big"] = load_s23a("s23a_tail_pairs_big")
    ds["s22c_big"] = load_s22(["s22c_pairs_big_main", "s22c_pairs_big_alt"])
    ds["s22c_small"] = load_s22(["s22c_pairs_small_main", "s22c_pairs_small_alt"])
    for f in OLD_FILES:
        ds[Path(f).stem] = load_jsonl(RES / f)
    return ds


def report(predictors: dict, eff=None, datasets=None, s23f=True) -> None:
    eff = dispatch.measured_efficiencies() if eff is None else eff
    datasets = datasets or all_datasets()
    print(f"{'dataset':22s} {'n':>3s} " + " ".join(f"{n:>24s}" for n in predictors))
    for name, data in datasets.items():
        cells = []
        for pname, fn in predictors.items():
            r = score(data, fn, eff)
            cells.append(f"{r['geo']:.3f} {r['worst']:.3f} {r['within']:2d}/{r['n']:<2d}")
        print(f"{name:22s} {len(data):3d} " + " ".join(f"{c:>24s}" for c in cells))
    if s23f:
        for name in ("s23f_odd_picks_2203", "s23f_odd_picks_2204"):
            data = load_s23f(name)
            r0 = {s: cfg_key(min(costmodel.candidate_configs(*s, "float64"),
                                 key=lambda c: baseline(c, *s, eff))) for s in data}
            cells = []
            for pname, fn in predictors.items():
                r = score_s23f(data, fn, eff, r0.get)
                cells.append(f"{r['geo']:.3f} {r['worst']:.3f} {r['within']:2d}/{r['n']:<2d} ?{r['unknown']}")
            print(f"{name[-9:]:22s} {len(data):3d} " + " ".join(f"{c:>24s}" for c in cells))


if __name__ == "__main__":
    report({"shipped": baseline})
