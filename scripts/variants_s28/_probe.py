"""What the twenty-eighth session's probes share: filling a cubin cache without a GPU, and one
shape's candidates checked, timed beside cuBLAS and a copy, printed and logged."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s27"))


def log_uniform(rs, lo, hi) -> int:
    """An integer drawn log-uniformly in [lo, hi] by the numpy Generator `rs`."""
    import math

    return int(round(math.exp(rs.uniform(math.log(lo), math.log(hi)))))


def choice_under(M: int, N: int, K: int, dtype: str, patch):
    """dispatch.choose for the shape inside `patch` (a unittest.mock patcher: a module constant or an
    environment variable changed for the call), the dispatch and cost-model caches cleared on both
    sides so neither the patched nor the shipped picks leak into the other."""
    from tiled_matmul import costmodel, dispatch

    dispatch.clear_cache()
    costmodel.clear_cache()
    try:
        with patch:
            return dispatch.choose(M, N, K, dtype)
    finally:
        dispatch.clear_cache()
        costmodel.clear_cache()


def precompile(cache: str, kernels, dtype: str = "float32") -> int:
    """Compile each (strategy entry or name, config) of `kernels` for `dtype` into the cubin cache
    at `cache` (compile.cubin_cache_dir's layout), each once; returns how many. An item may carry
    a third element, the ExSpec to render with (operand layouts, an epilogue, a C type)."""
    os.environ["CUPY_CACHE_DIR"] = os.path.abspath(cache)
    from tiled_matmul import compile as tm_compile
    from tiled_matmul import registry
    from tiled_matmul.render import kernel_name, render

    seen = set()
    for entry, cfg, *ex in kernels:
        entry = registry.get(entry) if isinstance(entry, str) else entry
        spec = ex[0] if ex else None
        if (entry.name, cfg, spec) in seen:
            continue
        seen.add((entry.name, cfg, spec))
        tm_compile.cached_cubin(render(entry, cfg, dtype, spec), kernel_name(entry.name, cfg, dtype),
                                cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, dtype)
    return len(seen)


def time_shape(shape, fns: dict, extra: dict, c, a, b, flush, logs: dict, key=lambda label: label):
    """Check every callable of `fns` but the first (cuBLAS) into the NaN-poisoned `c` (failures
    reported and dropped), time them all in 3 alternating rounds beside a copy of the product's
    bytes, print the rows, and append each one's log ratio to cuBLAS to logs[key(label)]; returns
    timed_with_copy's (per-round ms, medians)."""
    from _checked import check_candidates
    from _rounds import log_ratio, print_rows, timed_with_copy

    M, N, K = shape
    check_candidates(fns, extra, c, a, b)
    nbytes = (M * K + K * N + M * N) * a.dtype.itemsize
    res, med = timed_with_copy(fns, nbytes, 3, flush)
    print_rows(shape, fns, res, med, nbytes, extra=extra)
    for label in list(fns)[1:]:
        logs.setdefault(key(label), []).append(log_ratio(res, label))
    return res, med


def auto_against(shapes, variants, dtype: str, seed: int, more=None, **call_kw) -> tuple[dict, dict]:
    """For each (M, N, K) of `shapes`: fresh uniform operands, auto and each (strategy, params) of
    variants(M, N, K) (called with `call_kw`), and the callables more(a, b, c, kernel) adds
    ({label: (fn, description)}), through :func:`time_shape`; prints the table and the geometric
    means. Returns (logs, {shape: (medians, descriptions)})."""
    import cupy
    import numpy as np

    import tiled_matmul as tm
    from tiled_matmul.timing import L2Flusher

    from _rounds import describe, print_geomeans

    flush = L2Flusher()
    gen = cupy.random.default_rng(seed)
    np_dt = np.dtype(dtype)
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    logs: dict = {}
    per_shape: dict = {}
    for M, N, K in shapes:
        a = gen.uniform(-1, 1, (M, K), dtype=np.float64).astype(np_dt)
        b = gen.uniform(-1, 1, (K, N), dtype=np.float64).astype(np_dt)
        c = cupy.empty((M, N), dtype=np_dt)
        k = tm.kernel("auto").kernel_for(M, N, K, dtype)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        extra = {"auto": describe(k)}
        for label, (name, p) in variants(M, N, K).items():
            fns[label] = lambda name=name, p=p: tm.matmul(a, b, out=c, strategy=name, **call_kw, **p)
            extra[label] = f"{name} {p}"
        for label, (fn, what) in (more(a, b, c, k) if more else {}).items():
            fns[label], extra[label] = fn, what
        _, med = time_shape((M, N, K), fns, extra, c, a, b, flush, logs)
        per_shape[(M, N, K)] = (med, extra)
    print()
    print_geomeans(logs)
    return logs, per_shape


def precompile_shapes(cache: str, shapes, variants, dtype: str = "float32") -> int:
    """:func:`precompile` auto's kernel and each (strategy, params) of variants(M, N, K) for every
    shape of `shapes`; returns how many kernels."""
    import tiled_matmul as tm
    from tiled_matmul import registry

    todo = []
    for M, N, K in shapes:
        k = tm.kernel("auto").kernel_for(M, N, K, dtype)
        todo += [(k.strategy, k.config)] + [(n, registry.get(n).make_config(**p)) for n, p in variants(M, N, K).values()]
    return precompile(cache, todo, dtype)


def model_top(M: int, N: int, K: int, dtype: str, top: int) -> dict:
    """label -> (strategy, params): the cost model's first `top` candidates for the shape among
    every rung (m1 is auto's pick where no database entry or rule serves the shape)."""
    from tiled_matmul import costmodel, dispatch

    ranked = costmodel.rank(M, N, K, dtype, efficiencies=dispatch.measured_efficiencies(None))
    return {f"m{i + 1}": (p.strategy, dispatch._own_params(p)) for i, p in enumerate(ranked[:top])}


def padded_call(a, b, c, name: str, params: dict):
    """A call of strategy `name` with `params` into `c` on copies of float32 a and b made once here
    in rows padded to 16 bytes (views of the unpadded shapes): no copy at the call."""
    import cupy
    import numpy as np

    import tiled_matmul as tm

    (M, K), N = a.shape, b.shape[1]
    ap = cupy.zeros((M, -(-K // 4) * 4), np.float32)[:, :K]
    ap[...] = a
    bp = cupy.zeros((K, -(-N // 4) * 4), np.float32)[:, :N]
    bp[...] = b
    return lambda: tm.matmul(ap, bp, out=c, strategy=name, **params)
