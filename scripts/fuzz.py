#!/usr/bin/env python3
"""GPU fuzzing: N random matmuls over every registered strategy, search-space config, dtype, shape
(0..600 per dimension) and input kind, each checked against cuBLAS with a NaN-poisoned output.

Prints one line per failure and a summary; exits 1 when any case fails. Needs no hypothesis.

    PYTHONPATH=. python3 scripts/fuzz.py --cases 1000 --seed 0
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tiled_matmul as tm  # noqa: E402

EDGES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
         511, 512, 513, 599, 600]
MODES = {  # input kind -> weight
    "cupy": 3, "out": 4, "transposed": 2, "sliced": 1, "numpy": 1, "numpy_out": 1, "dlpack_out": 1, "torch": 1,
}


class DLPackOnly:
    """An object seen only through DLPack (like a JAX array)."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, **kwargs):
        return self.x.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def cases_for(strategies, dtypes):
    out = []
    for name in strategies:
        entry = tm.STRATEGIES[name]
        for cfg in entry.configs:
            out.extend((name, cfg, dt) for dt in dtypes if cfg.is_valid(dtype=dt))
    return out


def draw_dim(rnd: random.Random, max_dim: int) -> int:
    if rnd.random() < 0.4:
        return min(rnd.choice(EDGES), max_dim)
    return rnd.randint(0, max_dim)


def run_case(cp, torch, name, cfg, dtype, M, N, K, mode, seed):
    """Run one case; returns (passed, detail)."""
    rng = np.random.default_rng(seed)
    params = cfg.params()

    def dev(shape):
        return cp.asarray(rng.uniform(-1, 1, shape).astype(dtype))

    if mode == "transposed":
        a, b = dev((K, M)).T, dev((N, K)).T
    elif mode == "sliced":  # every other row/column of bigger buffers
        a, b = dev((2 * M, K + 1))[::2, 1:], dev((K, 2 * N))[:, ::2]
    else:
        a, b = dev((M, K)), dev((K, N))
    expect = None
    if mode in ("cupy", "transposed", "sliced"):
        c = tm.matmul(a, b, strategy=name, **params)
        expect = cp.ndarray
    elif mode == "out":
        c = cp.full((M, N), cp.nan, dtype)
        if tm.matmul(a, b, strategy=name, out=c, **params) is not c:
            return False, "out was not returned"
    elif mode == "numpy":
        c = tm.matmul(cp.asnumpy(a), cp.asnumpy(b), strategy=name, **params)
        expect = np.ndarray
    elif mode == "numpy_out":
        c = np.full((M, N), np.nan, dtype)
        if tm.matmul(cp.asnumpy(a), cp.asnumpy(b), strategy=name, out=c, **params) is not c:
            return False, "out was not returned"
    elif mode == "dlpack_out":
        c = cp.full((M, N), cp.nan, dtype)
        wrapped = DLPackOnly(c)
        if tm.matmul(DLPackOnly(a), DLPackOnly(b), strategy=name, out=wrapped, **params) is not wrapped:
            return False, "out was not returned"
    elif mode == "torch":
        ta, tb = (torch.from_numpy(cp.asnumpy(x)).to("cuda") for x in (a, b))
        tc = torch.full((M, N), float("nan"), device="cuda", dtype=ta.dtype)
        if tm.matmul(ta, tb, strategy=name, out=tc, **params) is not tc:
            return False, "out was not returned"
        c = cp.asarray(tc.cpu().numpy())
    else:  # pragma: no cover
        raise ValueError(mode)
    if expect is not None and not isinstance(c, expect):
        return False, f"result is {type(c).__name__}, expected {expect.__name__}"
    if tuple(c.shape) != (M, N) or str(c.dtype) != dtype:
        return False, f"result has shape {c.shape} and dtype {c.dtype}"
    report = tm.check(c, a, b)
    return report.passed, report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-dim", type=int, default=600)
    p.add_argument("--strategies", default="", help="comma-separated (default: every registered strategy)")
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--json", default="", help="write a summary (and every failure) to this file")
    args = p.parse_args(argv)

    if not tm.gpu_available():
        print("fuzz: no CUDA device (cupy.is_available() is False); nothing run", file=sys.stderr)
        return 2
    import cupy as cp

    try:
        import torch

        if not torch.cuda.is_available():
            torch = None
    except ImportError:
        torch = None
    modes = {m: w for m, w in MODES.items() if m != "torch" or torch is not None}

    strategies = [s for s in args.strategies.split(",") if s] or list(tm.STRATEGIES)
    cases = cases_for(strategies, [d for d in args.dtypes.split(",") if d])
    rnd = random.Random(args.seed)
    failures, tally, t0 = [], Counter(), time.perf_counter()
    for i in range(args.cases):
        name, cfg, dtype = cases[i] if i < len(cases) else rnd.choice(cases)  # every config at least once
        M, N, K = (draw_dim(rnd, args.max_dim) for _ in range(3))
        mode = rnd.choices(list(modes), weights=list(modes.values()))[0]
        seed = rnd.getrandbits(32)
        tally[name] += 1
        try:
            ok, detail = run_case(cp, torch, name, cfg, dtype, M, N, K, mode, seed)
        except Exception:
            ok, detail = False, traceback.format_exc(limit=3)
        if not ok:
            case = dict(i=i, strategy=name, params=cfg.params(), dtype=dtype, shape=(M, N, K), mode=mode,
                        seed=seed, detail=str(detail))
            failures.append(case)
            print(f"FAIL {json.dumps(case)}", flush=True)
        if (i + 1) % 100 == 0:
            print(f"fuzz: {i + 1}/{args.cases} cases, {len(failures)} failures, "
                  f"{time.perf_counter() - t0:.1f} s", flush=True)
    elapsed = time.perf_counter() - t0
    print(f"fuzz: per strategy {dict(tally)}; modes {sorted(modes)}; {len(cases)} (strategy, config, dtype) cases")
    print(f"fuzz: {args.cases} cases, {len(failures)} failures (seed {args.seed}, max dim {args.max_dim}) "
          f"in {elapsed:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(cases=args.cases, seed=args.seed, failures=failures,
                                                   per_strategy=dict(tally), seconds=elapsed), indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
