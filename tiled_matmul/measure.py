"""Validate, then time: how every number in the project is measured (bench, tune, explain, benchmarks/).

A measured :class:`Row` (``call(a, b, c)`` computes a @ b) goes through these steps:

1. fresh inputs (:func:`make_inputs`): A and B uniform in [-1, 1), signed so that an error cannot
   hide in a biased sum; several sets to rotate where one set fits in L2 (:func:`n_input_sets`);
2. :func:`validate`: C is filled with NaN (so an element the kernel does not write fails), the row
   is called once and its result is checked against a float64 reference
   (:func:`tiled_matmul.check`). A row that fails is recorded as ``failed`` and is never timed.
   That call, bracketed by CUDA events, is the *probe* that sizes the timing run;
3. :func:`plan_repeats`: as many timed repeats as asked for, fewer when they would not fit in the
   time budget (never under ``min_repeat``), and fewer warm-up calls for slow rows;
4. :func:`time_validated`: CUDA events around each call after the warm-up, the L2 cache flushed
   before every repeat, input sets rotated; median, min, max and IQR over the repeats.

Every row ends as one :class:`Record`. cuBLAS rows (:func:`cublas_row`) run ``cupy.matmul`` with
CuPy's float32 compute type set explicitly (:func:`cublas_compute_type`): plain FP32 unless the row
asks for TF32, whatever ``CUPY_TF32`` says; float16 with FP32 compute; bfloat16 through
``cupy.matmul`` where CuPy multiplies it, else ``torch.matmul`` (:func:`bf16_cublas`).

Shapes have one grammar (:func:`parse_shape`): ``4096`` is 4096³, ``3001x2999x3007`` is M×N×K; a list
of shapes (:func:`parse_shapes`) separates them with commas.
"""

from __future__ import annotations

import argparse
import contextlib
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import accuracy, api
from . import precision as _precision
from .compile import get_kernel
from .configs import Config
from . import numerics
from .numerics import poison
from .timing import L2Flusher, Timing, host_us_per_call, time_fn

Shape = tuple[int, int, int]
Sets = Sequence[tuple[Any, Any, Any]]

#: Record statuses. ``ok``: validated and timed. ``pruned``: validated, then not timed further
#: because its probe was far slower than the best so far (its times are the probe's).
#: ``failed``: the result failed the check; never timed. ``error``: it could not compile or run.
#: ``skipped``: not run, by design (e.g. a strategy that cannot compute the requested precision).
OK, PRUNED, FAILED, ERROR, SKIPPED = "ok", "pruned", "failed", "error", "skipped"
STATUSES = (OK, PRUNED, FAILED, ERROR, SKIPPED)

DEFAULT_REPEAT = 10
DEFAULT_BUDGET_S = 1.0
MIN_REPEAT = 3
#: At most this many input sets are rotated (only shapes whose A, B, C fit in L2 get more than one).
MAX_INPUT_SETS = 8
#: ``||C - ref|| / ||ref||`` allowed for a TF32 cuBLAS row (10-bit mantissa inputs).
TF32_TOL = 1e-2
CUBLAS = "cuBLAS"
CUBLAS_TF32 = "cuBLAS TF32"
#: The dispatching pseudo-strategy: ``matmul(..., strategy="auto")``, measured as its own row.
AUTO = "auto"


# ---------------------------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------------------------
def emit_markdown(text: str, filename: str) -> "str | None":
    """Print a benchmark script's markdown result and, with $OUT set, write it to $OUT/`filename`
    (the path written, or None)."""
    import os

    print("\n" + text)
    if not os.environ.get("OUT"):
        return None
    path = os.path.join(os.environ["OUT"], filename)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {path}")
    return path


def parse_shape(shape: "Sequence[int] | str | int") -> Shape:
    """(M, N, K) from text ``"n"`` (n³) or ``"MxNxK"`` (``×``, ``*`` and ``,`` also separate the three
    dims), an int n, or a 3-sequence of ints.

    Raises ValueError for anything that is not three positive ints, TypeError for non-ints.
    """
    if isinstance(shape, str):
        text = shape.strip().lower()
        for sep in ("×", "*", ","):
            text = text.replace(sep, "x")
        parts = text.split("x")
        if len(parts) not in (1, 3) or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"shape {shape!r} must be MxNxK (e.g. 3000x2000x1000) or one size n for n³")
        dims = [int(p) for p in parts] * (3 if len(parts) == 1 else 1)
    elif isinstance(shape, bool):
        raise TypeError(f"shape must be (M, N, K) ints; got {shape!r}")
    elif isinstance(shape, int):
        dims = [shape] * 3
    else:
        try:
            dims = list(shape)
        except TypeError:
            raise TypeError(f"shape must be (M, N, K) ints or 'MxNxK' text; got {type(shape).__name__}") from None
        if len(dims) != 3:
            raise ValueError(f"shape must have three dims (M, N, K); got {len(dims)}: {tuple(dims)}")
        for d in dims:
            if isinstance(d, bool) or not hasattr(d, "__index__"):
                raise TypeError(f"shape dims must be ints; got {d!r} in {tuple(dims)}")
        dims = [int(d) for d in dims]
    if any(d < 1 for d in dims):
        raise ValueError(f"shape dims must be >= 1; got {tuple(dims)}")
    return dims[0], dims[1], dims[2]


def parse_shapes(shapes: "str | Iterable[Sequence[int] | str | int]") -> list[Shape]:
    """A list of shapes: text ``"1024,3000x2000x1000"`` (commas separate shapes) or an iterable of
    anything :func:`parse_shape` takes. Raises ValueError naming the bad item."""
    if not isinstance(shapes, str):
        return [parse_shape(s) for s in shapes]
    if not shapes.strip():
        raise ValueError("sizes must be a comma-separated list like 1024,4096 or 3000x2000x1000")
    out = []
    for item in shapes.split(","):
        try:
            out.append(parse_shape(item.strip()))
        except ValueError:
            raise ValueError(f"bad size {item.strip()!r}: use n (for n³) or MxNxK, comma-separated, "
                             "e.g. 1024,3000x2000x1000") from None
    return out


def parse_precisions(requests: "Iterable[str] | str | None", dtype: Any = None) -> list[str]:
    """Precision requests (:mod:`tiled_matmul.precision`) in order without repeats: names, or text
    like ``"ieee,tf32x3"``; ``[the process default]`` when None. ValueError naming the allowed
    values for an unknown one (or, with `dtype`, one that dtype does not take: float64 takes
    "auto" and "ieee"); TypeError for a non-string."""
    if requests is None:
        requests = [_precision.get_precision()]
    elif isinstance(requests, str):
        requests = [r.strip() for r in requests.split(",") if r.strip()]
    elif not isinstance(requests, Iterable):
        raise TypeError(f"precision must be a string or a list of them, each one of "
                        f"{', '.join(map(repr, _precision.REQUESTS))}; got {type(requests).__name__} {requests!r}")
    out = [_precision.check(r, dtype) for r in requests]
    if not out:
        raise ValueError(f"no precision given; allowed: {', '.join(map(repr, _precision.REQUESTS))}")
    return list(dict.fromkeys(out))


def _argtype(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except (ValueError, TypeError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


#: argparse ``type=`` for one shape and for a comma-separated list of shapes.
shape_arg = _argtype(parse_shape)
shapes_arg = _argtype(parse_shapes)
#: argparse ``type=`` for a comma-separated list of precision requests.
precisions_arg = _argtype(parse_precisions)


def shape_label(shape: Shape) -> str:
    """``"1024³"`` for cubes, ``"3000×2000×1000"`` otherwise."""
    M, N, K = shape
    return f"{M}³" if M == N == K else f"{M}×{N}×{K}"


# ---------------------------------------------------------------------------------------------
# the record of a measured row
# ---------------------------------------------------------------------------------------------
@dataclass
class Record:
    """One measured row: a strategy config (or cuBLAS) at one shape. Plain data, JSON/CSV-ready.
    ``status`` is one of :data:`STATUSES`; only ``ok`` and ``pruned`` rows have times."""

    study: str  # what the row belongs to: "ladder" / "tiles" (bench), "tune", ...
    strategy: str  # registry name, "auto", or "cuBLAS" / "cuBLAS TF32"
    config: str  # "tile=32" style; "" for cuBLAS and auto
    M: int
    N: int
    K: int
    dtype: str
    status: str = OK
    median_ms: "float | None" = None
    min_ms: "float | None" = None
    max_ms: "float | None" = None
    iqr_ms: "float | None" = None  # spread: 75th - 25th percentile
    repeats: int = 0
    warmup: int = 0
    input_sets: int = 1
    tflops: "float | None" = None
    pct_cublas: "float | None" = None  # 100 * t_cuBLAS / t
    speedup_vs_naive: "float | None" = None  # t_naive / t
    threads_per_block: "int | None" = None
    smem_bytes: "int | None" = None
    registers: "int | None" = None
    rel_err: "float | None" = None
    tol: "float | None" = None
    message: str = ""
    #: what the times are of: "call" (the row's call) or "launch" (the bare compiled launch)
    timed: str = ""
    #: the precision mode the row computes in ("ieee", "tf32x3", "tf32"; cuBLAS: "ieee" with TF32
    #: off, "tf32" with it on); "" where unknown
    precision: str = ""
    #: the precision request the row was measured under ("auto", "ieee", ...); "" where none
    request: str = ""

    @property
    def shape(self) -> Shape:
        return (self.M, self.N, self.K)

    @property
    def ok(self) -> bool:
        return self.status == OK and self.median_ms is not None

    @property
    def params(self) -> dict[str, int]:
        """The config's parameters, read back from ``config`` (every parameter is an int)."""
        return {k: int(v) for k, v in (item.split("=", 1) for item in self.config.split())}

    def label(self) -> str:
        return f"{self.strategy}({', '.join(f'{k}={v}' for k, v in self.params.items())})"

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["shape"] = shape_label(self.shape)
        return d


def config_label(cfg: "Config | None") -> str:
    return "" if cfg is None else " ".join(f"{k}={v}" for k, v in cfg.params().items())


# ---------------------------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """Something to measure: ``call(a, b, c)`` writes a @ b into c (or returns it)."""

    study: str
    strategy: str
    call: Callable[[Any, Any, Any], Any]
    config: "Config | None" = None
    tol: "float | None" = None  # validation tolerance (None: tiled_matmul.tolerance)
    context: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext
    timed: str = "call"
    #: the precision mode it computes in ("": the config's, where it has one)
    precision: str = ""
    #: the precision request it is measured under ("" where none)
    request: str = ""
    #: why it is not run ("": it is); such a row is recorded as ``skipped``, never called
    skip: str = ""

    @property
    def label(self) -> str:
        return f"{self.strategy} {config_label(self.config)}".strip()


def tolerance_for(mode: str) -> "float | None":
    """The normwise tolerance a row computing in precision `mode` is validated at: :data:`TF32_TOL`
    for one TF32 pass (10-bit mantissas), None (:func:`tiled_matmul.tolerance`) otherwise."""
    return TF32_TOL if mode == "tf32" else None


def strategy_row(study: str, name: str, cfg: Config, request: str = "") -> Row:
    """A row launching `name` with `cfg` through the public API (validated for the current device),
    at the tolerance of the precision mode `cfg` computes in; `request` is recorded with it.

    A config this device cannot run still makes a row: its call raises, so the row is recorded
    with status ``error`` and the rest of the run goes on.
    """
    tags = dict(tol=tolerance_for(cfg.precision), precision=cfg.precision, request=request)
    try:
        k = api.kernel(name, **cfg.params())
    except (ValueError, TypeError) as exc:
        err = exc

        def broken(a, b, c):
            raise err

        return Row(study, name, broken, cfg, **tags)
    return Row(study, name, lambda a, b, c: k(a, b, out=c), cfg, **tags)


def skipped_row(study: str, name: str, cfg: "Config | None", request: str, why: str) -> Row:
    """A row that is recorded as ``skipped`` with the reason `why` and never called."""

    def never(a, b, c):
        raise AssertionError(f"skipped row {name!r} called")

    return Row(study, name, never, cfg, request=request, skip=why)


def auto_row(study: str, request: str = "") -> Row:
    """A row calling ``matmul(a, b, strategy="auto", precision=request)`` (the process default's
    request when `request` is ""): the tuned (or heuristic) pick per shape."""
    precision = request or None
    return Row(study, AUTO, lambda a, b, c: api.matmul(a, b, AUTO, out=c, precision=precision),
               tol=tolerance_for(request), request=request)


def cublas_row(study: str, tf32: bool = False, request: str = "", dtype: Any = None) -> Row:
    """``cupy.matmul`` with plain FP32 compute (precision "ieee"), or TF32 ("tf32", validated at
    :data:`TF32_TOL`); `request` is recorded with it. For a bfloat16 `dtype`, the library
    :func:`bf16_cublas` names (cuBLAS either way); float16 runs with FP32 compute."""

    def call(a, b, c):
        import cupy

        cupy.matmul(a, b, out=c)

    if tf32:
        return Row(study, CUBLAS_TF32, call, None, TF32_TOL, lambda: cublas_compute_type("tf32"),
                   precision="tf32", request=request)
    if dtype is not None and str(dtype) == "bfloat16" and bf16_cublas() == "torch.matmul":
        return Row(study, CUBLAS, _torch_matmul, context=_torch_fp32_reductions, precision="ieee", request=request)
    half = dtype is not None and str(dtype) == "float16"
    return Row(study, CUBLAS, call, context=lambda: cublas_compute_type("fp32", "float16" if half else "float32"),
               precision="ieee", request=request)


def bf16_cublas() -> str:
    """Which library multiplies bfloat16 cupy arrays with cuBLAS here: "cupy.matmul" where CuPy
    can (tried once, on a 16 x 16 product), else "torch.matmul" (through DLPack), else "none"."""
    global _BF16
    if _BF16 is None:
        import cupy
        import numpy as np

        from .dtypes import BFLOAT16

        try:
            x = cupy.asarray(np.ones((16, 16), np.float32).astype(BFLOAT16.numpy))
            cupy.matmul(x, x)
            _BF16 = "cupy.matmul"
        except Exception:
            try:
                import torch  # noqa: F401

                _BF16 = "torch.matmul"
            except ImportError:
                _BF16 = "none"
    return _BF16


_BF16: "str | None" = None


@contextlib.contextmanager
def _torch_fp32_reductions() -> Iterator[str]:
    """torch's bfloat16 GEMMs with FP32 accumulation throughout (its reduced-precision bfloat16
    reductions off, as in our kernels) while inside."""
    import torch

    flag = torch.backends.cuda.matmul
    before = flag.allow_bf16_reduced_precision_reduction
    flag.allow_bf16_reduced_precision_reduction = False
    try:
        yield "torch.matmul, bfloat16 reduced-precision reductions off"
    finally:
        flag.allow_bf16_reduced_precision_reduction = before


def _torch_matmul(a: Any, b: Any, c: Any) -> None:
    """c = a @ b by torch.matmul on DLPack views of cupy arrays (cuBLAS, FP32 accumulation)."""
    import torch

    torch.matmul(torch.from_dlpack(a), torch.from_dlpack(b), out=torch.from_dlpack(c))


@contextlib.contextmanager
def cublas_compute_type(kind: str, dtype: Any = "float32") -> Iterator[str]:
    """Set CuPy's matmul compute type for `dtype` (float32, or float16) to ``"fp32"`` (for
    float32: TF32 off) or ``"tf32"`` while inside; restore the previous one after. Yields CuPy's
    name for the type now in force."""
    import numpy as np
    from cupy._core import _routines_linalg as rl

    want = {"fp32": rl.COMPUTE_TYPE_FP32, "tf32": rl.COMPUTE_TYPE_TF32}[kind]
    dt = np.dtype(dtype)
    before = rl.get_compute_type(dt)
    rl.set_compute_type(dt, want)
    try:
        yield rl.compute_type_to_str(rl.get_compute_type(dt))
    finally:
        rl.set_compute_type(dt, before)


def errors_beside_cublas_fp32(fn: Callable[[Any, Any], Any], name: str, M: int, N: int, K: int,
                              seed: int = 0) -> tuple[float, float]:
    """(fn's, cuBLAS FP32's) componentwise error on data set `name` at M x N x K: float32 operands
    on the current device, the exact float64 reference (:func:`numerics.exact64`), ``cupy.matmul``
    with TF32 off beside ``fn(a, b)``; CuPy's memory pool is emptied after (long-K cases are
    large)."""
    import cupy

    a, b = (cupy.asarray(x) for x in numerics.make(name, M, N, K, seed=seed))
    ref, den = numerics.reference(a, b)
    out = fn(a, b)
    with cublas_compute_type("fp32"):
        cub = cupy.matmul(a, b)
    errors = (numerics.componentwise_error(out, a, b, ref, den),
              numerics.componentwise_error(cub, a, b, ref, den))
    del a, b, ref, den, out, cub
    cupy.get_default_memory_pool().free_all_blocks()
    return errors


# ---------------------------------------------------------------------------------------------
# inputs and the repeat planner
# ---------------------------------------------------------------------------------------------
def make_inputs(shape: Shape, dtype: str, n_sets: int = 1, seed: "int | None" = None) -> list[tuple[Any, Any, Any]]:
    """`n_sets` independent (A, B, C) device triples, A and B uniform in [-1, 1) (new values on
    every call unless `seed` is given), C uninitialised."""
    import cupy

    from .dtypes import as_dtype

    M, N, K = shape
    gen = cupy.random.default_rng(seed)
    dt = as_dtype(dtype)

    def uniform(rows: int, cols: int):
        if dt.half:  # drawn in float32 and rounded (bfloat16 on the host: ml_dtypes rounds it)
            x = gen.random((rows, cols), dtype="float32") * 2 - 1
            return x.astype(dt.numpy) if dt.name == "float16" else cupy.asarray(cupy.asnumpy(x).astype(dt.numpy))
        return (gen.random((rows, cols), dtype=dtype) * 2 - 1).astype(dtype, copy=False)

    return [(uniform(M, K), uniform(K, N), cupy.empty((M, N), dtype=dt.numpy)) for _ in range(n_sets)]


def n_input_sets(set_bytes: int, l2_bytes: int, max_sets: int = MAX_INPUT_SETS) -> int:
    """How many (A, B, C) sets to rotate: 1 when one set exceeds L2, else enough to exceed it
    (capped at `max_sets`)."""
    if set_bytes <= 0 or set_bytes > l2_bytes:
        return 1
    return max(1, min(max_sets, l2_bytes // set_bytes + 1))


def plan_repeats(probe_ms: float, repeat: int, budget_s: float = DEFAULT_BUDGET_S,
                 min_repeat: int = MIN_REPEAT, warmup: "int | None" = None) -> tuple[int, int]:
    """(timed repeats, warm-up calls) for a row whose validated first call took `probe_ms`.

    ``repeat`` when it fits in `budget_s`, else as many as fit but at least
    ``min(min_repeat, repeat)``. Warm-ups, unless given: 3 for fast rows, 1 above 20 ms, 0 above
    200 ms (the validated call already warmed the kernel).
    """
    if repeat < 1:
        raise ValueError(f"repeat must be >= 1; got {repeat}")
    probe_ms = max(float(probe_ms), 1e-6)
    budget_ms = budget_s * 1e3
    if probe_ms * repeat <= budget_ms:
        n = repeat
    else:
        n = min(repeat, max(min(min_repeat, repeat), int(budget_ms // probe_ms)))
    if warmup is None:
        warmup = 3 if probe_ms < 20 else (1 if probe_ms < 200 else 0)
    return n, warmup


# ---------------------------------------------------------------------------------------------
# validate, then time
# ---------------------------------------------------------------------------------------------
@dataclass
class Validation:
    """What :func:`validate` found: the probe time and check report of the validated call, or the
    record of a row that failed (or could not run) and so must not be timed."""

    probe_ms: "float | None" = None
    report: "accuracy.CheckReport | None" = None
    registers: "int | None" = None
    rejected: "Record | None" = None


def _shape_of(sets: Sets) -> tuple[Shape, str]:
    a, b, _ = sets[0]
    return (a.shape[0], b.shape[1], a.shape[1]), str(a.dtype)


def _record(row: Row, sets: Sets, v: "Validation | None" = None, **kw: Any) -> Record:
    shape, dtype = _shape_of(sets)
    cfg = row.config
    kw.setdefault("precision", row.precision or ("" if cfg is None else cfg.precision))
    kw.setdefault("request", row.request)
    if cfg is not None:
        kw.update(threads_per_block=cfg.threads, smem_bytes=cfg.smem_bytes(dtype))
    if v is not None:
        kw.update(registers=v.registers)
        if v.report is not None:
            kw.update(rel_err=v.report.rel_err, tol=v.report.tol)
    return Record(row.study, row.strategy, config_label(cfg), *shape, dtype, **kw)


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip()
    return (f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__)[:300]


def _registers(row: Row, dtype: str) -> "int | None":
    if row.config is None:
        return None
    try:
        return get_kernel(row.strategy, row.config, dtype).num_regs
    except Exception:  # the validating call reports why the kernel cannot be built
        return None


def validate(row: Row, sets: Sets) -> Validation:
    """Call `row` once on input set 0 (into a NaN-filled C) and check the result against a float64
    reference; that call, bracketed by CUDA events, is the probe. Never raises for a kernel
    problem: a row that fails or cannot run comes back as ``rejected``."""
    if row.skip:
        return Validation(rejected=_record(row, sets, status=SKIPPED, message=row.skip, precision=""))
    a, b, c = sets[0]
    v = Validation(registers=_registers(row, _shape_of(sets)[1]))
    result: list[Any] = []
    try:
        with row.context():
            poison(c)
            probe = time_fn(lambda i: result.append(row.call(a, b, c)), repeat=1, warmup=0)
            v.report = accuracy.check(c if result[0] is None else result[0], a, b, tol=row.tol)
    except Exception as exc:  # a compile or launch problem: record the row, keep measuring
        v.rejected = _record(row, sets, v, status=ERROR, message=_error_text(exc))
        return v
    if not v.report.passed:
        rep = v.report
        v.rejected = _record(row, sets, v, status=FAILED,
                             message=f"validation failed: rel_err {rep.rel_err:.3g} > tol {rep.tol:.3g}, "
                                     f"{rep.nonfinite} non-finite; not timed")
        return v
    v.probe_ms = probe.median_ms
    return v


def time_validated(row: Row, v: Validation, sets: Sets, flush: "L2Flusher | None", *,
                   repeat: int = DEFAULT_REPEAT, budget_s: float = DEFAULT_BUDGET_S,
                   min_repeat: int = MIN_REPEAT, warmup: "int | None" = None) -> Record:
    """Time a row :func:`validate` passed (a rejected row's record comes back untimed): repeats
    from :func:`plan_repeats`, the L2 flushed before each, input sets rotated."""
    if v.rejected is not None:
        return v.rejected
    shape, _ = _shape_of(sets)
    n, warm = plan_repeats(v.probe_ms, repeat, budget_s, min_repeat, warmup)
    try:
        with row.context():
            t = time_fn(lambda i: row.call(*sets[i % len(sets)]), repeat=n, warmup=warm, flush=flush)
    except Exception as exc:
        return _record(row, sets, v, status=ERROR, message=_error_text(exc))
    note = f"{n} of {repeat} repeats (budget {budget_s:g} s)" if n < repeat else ""
    return _record(row, sets, v, median_ms=t.median_ms, min_ms=t.min_ms, max_ms=t.max_ms, iqr_ms=t.iqr_ms,
                   repeats=n, warmup=warm, input_sets=len(sets), tflops=t.tflops(*shape), message=note,
                   timed=row.timed)


def pruned(row: Row, v: Validation, sets: Sets, why: str) -> Record:
    """The record of a validated row not timed further: its times are the probe's."""
    shape, _ = _shape_of(sets)
    ms = v.probe_ms
    return _record(row, sets, v, status=PRUNED, median_ms=ms, min_ms=ms, max_ms=ms, iqr_ms=0.0, repeats=1,
                   tflops=Timing(ms, ms, ms, 0.0, 1).tflops(*shape), message=why, timed=row.timed)


def measure(row: Row, sets: Sets, flush: "L2Flusher | None", **plan: Any) -> Record:
    """:func:`validate` then :func:`time_validated` (`plan`: its repeat, budget_s, min_repeat, warmup)."""
    return time_validated(row, validate(row, sets), sets, flush, **plan)


__all__ = [
    "parse_shape", "parse_shapes", "shape_arg", "shapes_arg", "parse_precisions", "precisions_arg", "shape_label", "Record", "Row", "Validation",
    "STATUSES", "OK", "PRUNED", "FAILED", "ERROR", "SKIPPED", "strategy_row", "skipped_row", "auto_row", "cublas_row",
    "cublas_compute_type", "bf16_cublas", "tolerance_for", "TF32_TOL", "emit_markdown",
    "make_inputs", "n_input_sets", "plan_repeats", "validate", "time_validated", "pruned", "measure",
    "config_label", "L2Flusher", "Timing", "time_fn", "host_us_per_call",
]
