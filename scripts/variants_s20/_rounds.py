"""What the twentieth session's probes share: callables timed in alternating rounds beside a
device copy of the product's bytes."""
import math
import statistics

import cupy

from tiled_matmul.timing import time_fn


def timed_with_copy(fns: dict, nbytes: int, rounds: int, flush) -> tuple[dict, dict]:
    """({name: [median ms per round]}, {name: median of those}) for each callable of `fns` and for
    "copy", a device-to-device copy of `nbytes` (CUDA events after warm-up, L2 flushed, 15 repeats a
    round), the callables alternating within each round."""
    src = cupy.empty(nbytes, dtype=cupy.uint8)
    dst = cupy.empty_like(src)
    fns = {**fns, "copy": lambda: dst.data.copy_from_device_async(src.data, nbytes)}
    res = {k: [] for k in fns}
    for _ in range(rounds):
        for k, f in fns.items():
            res[k].append(time_fn(lambda i, f=f: f(), repeat=15, warmup=3, flush=flush).median_ms)
    return res, {k: statistics.median(v) for k, v in res.items()}


def pct_of_copy(nbytes: int, ms: float, copy_ms: float) -> float:
    """The product's bytes per time as % of the copy's rate (its reads and writes counted)."""
    return 100 * (nbytes / ms) / (2 * nbytes / copy_ms)


def print_rows(shape: tuple, fns, res: dict, med: dict, nbytes: int, base: str = "cublas",
               extra: "dict | None" = None) -> None:
    """One markdown row per name of `fns` from timed_with_copy's (res, med): the product, the name,
    its median ms, the median of the rounds' ratios of `base` to it, its % of the copy's rate, and
    where `extra` is given one more cell (extra[name], or empty)."""
    M, N, K = shape
    for k in fns:
        ratio = statistics.median(b / t for b, t in zip(res[base], res[k]))
        cell = "" if extra is None else f" {extra.get(k, '')} |"
        print(f"| {M}×{N}×{K} | {k} | {med[k] * 1e3:.1f} | {ratio:.3f} | {pct_of_copy(nbytes, med[k], med['copy']):.1f} |{cell}",
              flush=True)


def log_ratio(res: dict, name: str, base: str = "cublas") -> float:
    """The median over timed_with_copy's rounds of log(base's time / name's time)."""
    return statistics.median(math.log(b / t) for b, t in zip(res[base], res[name]))


def print_geomeans(logs: dict) -> None:
    """For each key of `logs` ({key: [log_ratio, ...]}, a key a name or a (set, name) pair), the
    geometric mean, lowest and highest of its ratios."""
    for key, xs in logs.items():
        label = " ".join(key) if isinstance(key, tuple) else key
        print(f"{label}: geometric mean x cuBLAS {math.exp(statistics.fmean(xs)):.3f} over {len(xs)}, "
              f"lowest {math.exp(min(xs)):.3f}, highest {math.exp(max(xs)):.3f}", flush=True)


def describe(kernel) -> str:
    """A kernel object's strategy and params, or for a TransposedKernel "T" and its inner one's."""
    inner = getattr(kernel, "inner", None)
    k = inner if inner is not None else kernel
    return f"{'T ' if inner is not None else ''}{k.strategy.name} {k.config.params()}"
