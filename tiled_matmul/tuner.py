"""The autotuner: try every config of every tunable strategy on one shape, keep the fastest correct one.

For an M x N x K product of `dtype`, :func:`tune`

1. enumerates the search space (default config included) of each tunable strategy of the
   registry (``Strategy.tunable``), keeping only configs whose ``validate()`` passes for the device
   and dtype;
2. runs each candidate once on random inputs in [-1, 1) into a NaN-poisoned output and checks it
   against the float64 reference (:func:`tiled_matmul.check`); a wrong, failing or uncompilable
   candidate is recorded and dropped;
3. times the survivors with :func:`tiled_matmul.timing.time_fn` (CUDA events, L2 flushed before
   every repeat, median); a candidate whose first timed call is over `prune` times the best median
   so far is not timed further. What is timed is the compiled kernel launched on the checked device
   arrays (split-K's second kernel included), so Python-side argument checks do not blur the ranking
   of small shapes; that launch is checked too, and the public ``k(a, b, out=c)`` is timed instead
   where it is unavailable;
4. returns a :class:`TuneResult` (best strategy and params, its time, every candidate) and, unless
   ``save=False``, stores the best in the tuning database under the shape's bucket
   (:mod:`tiled_matmul.tunedb`), where ``strategy="auto"`` finds it.

Command line: ``tiled-matmul tune --sizes 4096 3001x2999x3007 --dtype float32``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

from . import registry, tunedb
from .configs import Config, dtype_name
from .measure import shape_arg


@dataclass
class Candidate:
    """One (strategy, config) the tuner tried."""

    strategy: str
    params: dict
    #: "ok" | "pruned" (slower than `prune` x best on its first timed call) | "wrong" (failed the
    #: check) | "error" (compile or launch failed)
    status: str = "pending"
    median_ms: "float | None" = None
    min_ms: "float | None" = None
    iqr_ms: "float | None" = None
    repeats: int = 0
    tflops: "float | None" = None
    rel_err: "float | None" = None
    message: str = ""
    #: "launch": timed as the bare compiled launch on checked device arrays; "call": through k(a, b, out=c)
    timed: str = ""

    def label(self) -> str:
        return f"{self.strategy}({', '.join(f'{k}={v}' for k, v in self.params.items())})"


@dataclass
class TuneResult:
    """What :func:`tune` found for one shape."""

    shape: tuple[int, int, int]
    dtype: str
    device: str
    cc: str
    bucket: str
    best: "Candidate | None"
    candidates: list[Candidate] = field(default_factory=list)
    cublas_ms: "float | None" = None
    seconds: float = 0.0
    db_path: "str | None" = None

    @property
    def strategy(self) -> "str | None":
        return self.best.strategy if self.best else None

    @property
    def params(self) -> dict:
        return dict(self.best.params) if self.best else {}

    @property
    def vs_cublas(self) -> "float | None":
        """cuBLAS time / best time: > 1 means faster than cuBLAS."""
        if self.best and self.cublas_ms and self.best.median_ms:
            return self.cublas_ms / self.best.median_ms
        return None

    def as_dict(self) -> dict:
        d = asdict(self)
        d["vs_cublas"] = self.vs_cublas
        return d

    def entry(self) -> dict:
        """The database entry recorded for this result."""
        b = self.best
        assert b is not None
        M, N, K = self.shape
        return {
            "strategy": b.strategy, "params": dict(b.params), "median_ms": round(b.median_ms, 5),
            "min_ms": round(b.min_ms, 5), "iqr_ms": round(b.iqr_ms, 5), "repeats": b.repeats,
            "tflops": round(b.tflops, 3), "rel_err": b.rel_err, "shape": [M, N, K], "dtype": self.dtype,
            "cublas_ms": None if self.cublas_ms is None else round(self.cublas_ms, 5),
            "candidates": sum(c.status in ("ok", "pruned") for c in self.candidates),
            "tuned_at": tunedb._now(),
        }


def search_space(strategies: "Iterable[str] | None" = None, dtype="float32", device: Any = None
                 ) -> list[tuple[registry.Strategy, Config]]:
    """(strategy, config) pairs to try: each tunable strategy's default and search space, valid
    for `device` and `dtype`, without duplicates. Naming a non-tunable strategy is allowed."""
    if strategies is None:
        entries = [s for s in registry.STRATEGIES.values() if s.tunable]
    else:
        if isinstance(strategies, str):
            strategies = [strategies]
        entries = [registry.get(s) for s in strategies]
    out = []
    for entry in entries:
        out.extend((entry, cfg) for cfg in entry.configs if cfg.is_valid(device, dtype))
    return out


def _random(shape, dtype, gen):
    return (gen.random(shape, dtype=dtype) * 2 - 1).astype(dtype, copy=False)


def _adaptive_repeats(est_ms: float, repeat: int, budget_ms: float, min_repeat: int = 3) -> int:
    if est_ms <= 0:
        return repeat
    return max(min(min_repeat, repeat), min(repeat, int(budget_ms / est_ms)))


def tune(M: int, N: int, K: int, dtype="float32", strategies: "Iterable[str] | None" = None, *,
         repeat: int = 10, warmup: int = 2, budget_ms: float = 400.0, prune: float = 3.0,
         cublas: bool = True, save: bool = True, db_path: Any = None, device: "int | None" = None,
         progress: bool = True, seed: "int | None" = None) -> TuneResult:
    """Find the fastest correct (strategy, params) for an M x N x K product of `dtype`.

    `strategies` limits the search (default: every tunable strategy). Each survivor of the check is
    timed over at most `repeat` L2-flushed calls after `warmup`, fewer when a call is long (about
    `budget_ms` of timed work per candidate, never under 3). `cublas` also times ``cupy.matmul``
    for scale. With `save`, the best goes into the tuning database at `db_path` (default
    :func:`tiled_matmul.tunedb.user_db_path`); a database that cannot be written only warns.

    >>> r = tune(2048, 2048, 2048)                 # doctest: +SKIP
    >>> r.strategy, r.params, r.best.median_ms     # doctest: +SKIP
    """
    import cupy

    from .api import kernel
    from .accuracy import check
    from .device import gpu_available
    from .timing import L2Flusher, time_fn

    if not gpu_available():
        raise RuntimeError("tune needs a CUDA device and none is available (cupy.is_available() is False)")
    M, N, K = (int(x) for x in (M, N, K))
    if min(M, N, K) < 1:
        raise ValueError(f"tune needs M, N, K >= 1; got {M}x{N}x{K}")
    dt = dtype_name(dtype)
    dev = cupy.cuda.runtime.getDevice() if device is None else int(device)
    t_start = time.perf_counter()
    with cupy.cuda.Device(dev):
        ident = tunedb.device_id(dev)
        space = search_space(strategies, dt, dev)
        if not space:
            raise ValueError(f"no valid config to tune for {dt} among strategies {strategies!r}")
        gen = cupy.random.default_rng(seed)
        a = _random((M, K), dt, gen)
        b = _random((K, N), dt, gen)
        c = cupy.empty((M, N), dtype=dt)
        flush = L2Flusher()
        result = TuneResult((M, N, K), dt, ident.name, ident.cc, tunedb.bucket(M, N, K, dt), None)

        if cublas:  # cupy.matmul with plain FP32 compute (TF32 off), as in the benchmarks
            ref = cupy.empty((M, N), dtype=dt)
            with _fp32_cublas():
                est = _single_ms(lambda: cupy.matmul(a, b, out=ref))
                t = time_fn(lambda i: cupy.matmul(a, b, out=ref), repeat=_adaptive_repeats(est, repeat, budget_ms),
                            warmup=warmup, flush=flush)
            result.cublas_ms = t.median_ms
            del ref

        bar = _progress(len(space), f"tune {M}x{N}x{K} {dt}", progress)
        best: "Candidate | None" = None
        try:
            for entry, cfg in space:
                cand = Candidate(entry.name, cfg.params())
                result.candidates.append(cand)
                bar.set_postfix_str(cand.label()[:60], refresh=False)
                try:
                    k = kernel(entry.name, **cfg.params())
                    c.fill(cupy.nan)
                    k(a, b, out=c)
                    report = check(c, a, b)
                    cand.rel_err = report.rel_err
                    if not report.passed:
                        cand.status = "wrong"
                        cand.message = (f"rel_err {report.rel_err:.3g} > tol {report.tol:.3g}, "
                                        f"{report.nonfinite} non-finite")
                        continue
                    call = _fast_call(k, a, b, c, (M, N, K), dt, dev, check)
                    cand.timed = "launch" if call is not None else "call"
                    if call is None:
                        call = lambda: k(a, b, out=c)  # noqa: E731
                    est = _single_ms(call)
                    if best is not None and est > prune * best.median_ms:
                        cand.status, cand.median_ms, cand.min_ms, cand.iqr_ms, cand.repeats = \
                            "pruned", est, est, 0.0, 1
                        cand.tflops = 2.0 * M * N * K / (est * 1e-3) / 1e12
                        continue
                    n = _adaptive_repeats(est, repeat, budget_ms)
                    t = time_fn(lambda i: call(), repeat=n, warmup=warmup, flush=flush)
                    cand.status = "ok"
                    cand.median_ms, cand.min_ms, cand.iqr_ms, cand.repeats = t.median_ms, t.min_ms, t.iqr_ms, n
                    cand.tflops = t.tflops(M, N, K)
                    if best is None or cand.median_ms < best.median_ms:
                        best = cand
                        bar.set_description(f"tune {M}x{N}x{K} {dt} best {best.median_ms:.3f} ms", refresh=False)
                except Exception as exc:  # compile errors, launch limits: record and go on
                    if isinstance(exc, (KeyboardInterrupt, MemoryError)):
                        raise
                    cand.status = "error"
                    cand.message = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
                finally:
                    bar.update(1)
        finally:
            bar.close()
        del a, b, c, flush
    result.best = best
    result.seconds = time.perf_counter() - t_start
    if best is None:
        warnings.warn(f"tune {M}x{N}x{K} {dt}: no candidate passed the check; nothing saved "
                      f"({'; '.join(c.label() + ': ' + c.status + ' ' + c.message for c in result.candidates)[:800]})",
                      RuntimeWarning, stacklevel=2)
        return result
    if save:
        try:
            path = tunedb.save_entries({result.bucket: result.entry()}, ident, db_path)
            result.db_path = str(path)
        except OSError as exc:
            warnings.warn(f"tune: could not save to the tuning database ({exc}); result not persisted",
                          RuntimeWarning, stacklevel=2)
    return result


def _fast_call(k, a, b, c, shape, dt, dev, check):
    """A low-host-overhead call for timing `k`: its compiled kernel launched directly on the
    already-checked device arrays, which is what ``MatmulKernel._run`` ends in after its Python-side
    checks. At small sizes those checks (tens of µs) would otherwise leak into the CUDA-event time
    and blur the ranking. The direct launch must pass its own check; None when it is unavailable or
    fails (the tuner then times the public call)."""
    import cupy

    M, N, K = shape
    try:
        from .api import _aligned

        run = getattr(k.compiled(dt, dev), "run", None)
        if run is None:
            return None
        flags = int(_aligned(a, K)) | (int(_aligned(b, N) and _aligned(c, N)) << 1)

        def call():
            run(a, b, c, M, N, K, flags)

        c.fill(cupy.nan)
        call()
        return call if check(c, a, b).passed else None
    except Exception:
        return None


def _fp32_cublas():
    """Context forcing CuPy's float32 matmul to plain FP32 compute (no TF32) when it can."""
    import contextlib

    try:
        from .measure import cublas_compute_type

        return cublas_compute_type("fp32")
    except Exception:
        return contextlib.nullcontext()


def _single_ms(fn) -> float:
    """Duration of one call of `fn`, in ms, bracketed by CUDA events (after one untimed call)."""
    import cupy

    fn()
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    s.record()
    fn()
    e.record()
    e.synchronize()
    return cupy.cuda.get_elapsed_time(s, e)


class _NoBar:
    def update(self, n=1): pass
    def set_postfix_str(self, *a, **k): pass
    def set_description(self, *a, **k): pass
    def close(self): pass


def _progress(total: int, desc: str, enabled: bool):
    if not enabled:
        return _NoBar()
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return _NoBar()
    return tqdm(total=total, desc=desc, unit="cfg", leave=True, file=sys.stderr)


def tune_many(sizes: Iterable[tuple[int, int, int]], dtype="float32", strategies=None, **kwargs) -> list[TuneResult]:
    """:func:`tune` for each (M, N, K) of `sizes`, in order."""
    return [tune(M, N, K, dtype, strategies, **kwargs) for M, N, K in sizes]


# ---------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------
def _strategy_list(text: str) -> list[str]:
    names = [s for s in text.replace(" ", ",").split(",") if s]
    for n in names:
        if n not in registry.STRATEGIES:
            raise argparse.ArgumentTypeError(f"unknown strategy {n!r}; registered: {', '.join(registry.STRATEGIES)}")
    return names


def add_arguments(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `tune` options to `p` (shared by ``tiled-matmul tune`` and ``python -m tiled_matmul.tuner``)."""
    p.add_argument("--sizes", "-s", nargs="+", type=shape_arg, required=True, metavar="SIZE",
                   help="shapes to tune: N (for N^3) or MxNxK, e.g. 4096 3001x2999x3007")
    p.add_argument("--dtype", "-d", nargs="+", default=["float32"], choices=["float32", "float64"],
                   help="dtype(s) to tune (default float32)")
    p.add_argument("--strategies", type=_strategy_list, default=None, metavar="A,B",
                   help="comma-separated strategies to search (default: every tunable one)")
    p.add_argument("--repeat", type=int, default=10, help="most timed repeats per candidate (default 10)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls before timing (default 2)")
    p.add_argument("--budget-ms", type=float, default=400.0,
                   help="timed work per candidate; long calls get fewer repeats, never under 3 (default 400)")
    p.add_argument("--db", default=None, metavar="PATH",
                   help=f"tuning database to write (default ${tunedb.ENV_VAR} or the user cache)")
    p.add_argument("--no-save", action="store_true", help="do not write the tuning database")
    p.add_argument("--no-cublas", action="store_true", help="do not time cupy.matmul for comparison")
    p.add_argument("--json", default=None, metavar="PATH", help="also write every result, all candidates, as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return p


def add_subcommand(subparsers) -> argparse.ArgumentParser:
    """Register ``tune`` on an argparse subparsers object; the handler is set as `func`."""
    p = subparsers.add_parser("tune", help="autotune shapes and store the best configs for strategy='auto'",
                              description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.set_defaults(func=run_cli)
    return p


def run_cli(args: argparse.Namespace) -> int:
    """Run a parsed ``tune`` command; prints a summary table; returns the exit status."""
    results: list[TuneResult] = []
    for dt in args.dtype:
        for M, N, K in args.sizes:
            results.append(tune(M, N, K, dt, args.strategies, repeat=args.repeat, warmup=args.warmup,
                                budget_ms=args.budget_ms, cublas=not args.no_cublas, save=not args.no_save,
                                db_path=args.db, progress=not args.quiet))
    print_summary(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.as_dict() for r in results], f, indent=1)
    saved = {r.db_path for r in results if r.db_path}
    for path in sorted(saved):
        print(f"saved to {path}")
    return 0 if all(r.best is not None for r in results) else 1


def print_summary(results: Sequence[TuneResult]) -> None:
    rows = []
    for r in results:
        b = r.best
        ok = sum(c.status in ("ok", "pruned") for c in r.candidates)
        rows.append([
            "x".join(map(str, r.shape)), r.dtype, r.bucket.split("/", 1)[1],
            b.strategy if b else "-", ", ".join(f"{k}={v}" for k, v in b.params.items()) if b else "-",
            f"{b.median_ms:.3f}" if b else "-", f"{b.tflops:.1f}" if b else "-",
            f"{r.cublas_ms:.3f}" if r.cublas_ms else "-", f"{r.vs_cublas:.2f}" if r.vs_cublas else "-",
            f"{ok}/{len(r.candidates)}",
        ])
    head = ["shape", "dtype", "bucket", "best", "params", "ms", "TFLOP/s", "cuBLAS ms", "xcuBLAS", "ok"]
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(*head, title="tiled-matmul tune")
        for row in rows:
            t.add_row(*row)
        Console().print(t)
    except ImportError:  # pragma: no cover - rich is a dependency
        print("\t".join(head))
        for row in rows:
            print("\t".join(row))


def main(argv: "Sequence[str] | None" = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tiled_matmul.tuner", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return run_cli(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
