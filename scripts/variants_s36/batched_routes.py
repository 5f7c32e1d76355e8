"""Thirty-sixth session: why batched 16-bit products of small matrices lose (probe_batched_draw.py,
seed 3501 on an H100: auto 0.22-0.70x cuBLAS on 7 of 16 rows and below the old mma_half route on 5).
For each drawn row (the draw of probe_batched_draw.py, seeds given): the kernel auto planned and the
layout copies it made, its GPU kernels one call launches (torch.profiler, CUPTI: names and µs), its
host µs per call, then the candidate routes timed side by side (validated first on NaN-poisoned
outputs): auto, the old route, wgmma_tma on 128x256 / 128x64 tiles, mma_half on 128x128 / 64x64 /
32x32 tiles, and for a shared B the fold after copying A row-major; cuBLAS (torch) beside them.

    PYTHONPATH=. python3 scripts/variants_s36/batched_routes.py SEED[,SEED...] [COUNT]
    PYTHONPATH=. python3 scripts/variants_s36/batched_routes.py --precompile CACHE   (CPU)
"""
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "variants_s35"))
sys.path.insert(0, os.path.join(HERE, "..", "variants_s34"))
sys.path.insert(0, os.path.join(HERE, "..", "variants_s28"))
sys.path.insert(0, os.path.join(HERE, "..", ".."))

#: label -> (strategy, params): the fixed candidates
CANDIDATES = {
    "wg256": ("wgmma_tma", {}),
    "wg64": ("wgmma_tma", dict(bm=128, bn=64, stages=8)),
    "mh128": ("mma_half", {}),
    "mh64": ("mma_half", dict(bm=64, bn=64, wm=32, wn=32, stages=4, min_blocks=3)),
    "mh32": ("mma_half", dict(bm=32, bn=32, wm=16, wn=16, stages=4, min_blocks=4)),
}


def precompile(cache: str) -> None:
    from _probe import precompile as pre
    from tiled_matmul import registry
    from tiled_matmul.configs import ALL_LAYOUTS
    from tiled_matmul.epilogue import ExSpec

    todo = []
    for name, params in CANDIDATES.values():
        entry = registry.get(name)
        cfg = entry.make_config(**params)
        todo.append((entry, cfg, ExSpec("float", batched=True)))
        todo += [(entry, cfg, ExSpec("float", batched=True, a_col=a, b_col=b, ld=True)) for a, b in ALL_LAYOUTS
                 if (a, b) in cfg.layouts()]
    print(sum(pre(cache, todo, d) for d in ("float16", "bfloat16")), "kernels")


def kernels_of(fn) -> str:
    """The GPU kernels one call of fn launches, as 'name µs' (torch.profiler)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    out = []
    for ev in prof.events():
        if ev.device_type == torch.autograd.DeviceType.CUDA:
            out.append(f"{ev.name[:40]} {ev.device_time:.1f}")
    return "; ".join(out)


def main() -> int:
    if sys.argv[1] == "--precompile":
        precompile(sys.argv[2])
        return 0
    import cupy
    import numpy as np
    import torch
    from ml_dtypes import bfloat16
    from probe_batched_draw import draw, errors, operands
    from probe_half_batched import alternating

    import tiled_matmul as tm
    from tiled_matmul import execute, heuristic
    from tiled_matmul.device import device_limits
    from tiled_matmul.measure import L2Flusher
    from tiled_matmul.timing import host_us_per_call

    last = {}
    compute = execute._compute

    def recording(*a, **kw):  # the plan each general-path call made (the kernel auto ran)
        last["plan"] = compute(*a, **kw)
        return last["plan"]

    execute._compute = recording
    seeds = [int(s) for s in sys.argv[1].split(",")]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    flush = L2Flusher()
    sms = device_limits(None).sm_count
    print(f"seeds {seeds}, {torch.cuda.get_device_name()}")
    logs = {}
    for seed in seeds:
        rs = np.random.default_rng(seed)
        for j, (count, M, N, K, form) in enumerate(draw(rs, n)):
            dname = ("float16", "bfloat16")[j % 2]
            dt = np.float16 if dname == "float16" else bfloat16
            tdt = torch.float16 if dname == "float16" else torch.bfloat16

            A, B = operands(rs, count, M, N, K, form, dt)

            def tview(x):
                return torch.from_dlpack(x.view(cupy.int16)).view(tdt)

            tA, tB = tview(A), tview(B)
            routes = {"auto": None, "old": heuristic.plain_pick(count * M, N, K, dname, sms, "ieee"), **CANDIDATES}
            outs = {k: cupy.empty((count, M, N), dt) for k in list(routes) + ["fold", "cublas"]}
            calls = {}
            for k, r in routes.items():
                if r is None:
                    calls[k] = lambda o=outs[k]: tm.matmul(A, B, out=o)
                else:
                    kern = tm.kernel(r[0], **r[1])
                    calls[k] = lambda o=outs[k], kern=kern: kern(A, B, o)
            if form.endswith("shared B"):
                calls["fold"] = lambda o=outs["fold"]: tm.matmul(cupy.ascontiguousarray(A), B, out=o)
            tC = tview(outs["cublas"])
            calls["cublas"] = lambda: torch.matmul(tA, tB, out=tC)
            what = f"{dname} {count}x{M}x{N}x{K} {form}"
            good = {}
            for k, f in calls.items():
                try:
                    outs[k].view(cupy.int16).fill(-1)
                    before = sum(execute.layout_copies_made.values())
                    last.clear()
                    f()
                    torch.cuda.synchronize()
                    copies = sum(execute.layout_copies_made.values()) - before
                    errs = [err for _, err in errors(outs[k], A, B)]
                    if max(errs) <= 2 * tm.tolerance(dt, K):
                        good[k] = f
                    else:
                        print(f"  {what} {k}: error {max(errs):.3g}")
                    if k == "auto":
                        plan = last.get("plan")
                        kern = getattr(plan, "kern", None)
                        print(f"## {what}: auto ran {getattr(kern, 'strategy', '?')} "
                              f"{getattr(kern, 'config', '')} "
                              f"copies {copies}")
                except Exception as e:  # a candidate that refuses the call is left out
                    print(f"  {what} {k}: {type(e).__name__}: {str(e)[:100]}")
            for k in ("auto", "old", "cublas"):
                if k in good:
                    print(f"  {k} kernels: {kernels_of(good[k])}")
            h = {k: host_us_per_call(good[k], calls=200, wait=False) for k in ("auto", "cublas") if k in good}
            us, r = alternating(good, flush, base="cublas")
            best = min((v, k) for k, v in us.items() if k != "cublas")
            print(f"  host µs auto {h.get('auto', 0):.1f} cublas {h.get('cublas', 0):.1f}")
            print("  " + " ".join(f"{k} {v:.1f}" for k, v in us.items()) + f" | best {best[1]} "
                  f"auto/best {us['auto'] / best[0]:.2f} cublas/auto {us['cublas'] / us['auto']:.2f}", flush=True)
            logs.setdefault(dname, []).append((what, us))
            del A, B, outs, tA, tB, tC, calls, good
            cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
