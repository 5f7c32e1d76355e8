"""GPU probe for the wgmma_tma rung: correctness on a few shapes, then speed against cuBLAS.

    PYTHONPATH=. python3 scripts/probe_tma.py                 # everything (~1 minute on an H100)
    PYTHONPATH=. python3 scripts/probe_tma.py --configs default   # the default config only
    PYTHONPATH=. python3 scripts/probe_tma.py --small         # two small shapes, one config per dtype
    PYTHONPATH=. compute-sanitizer --tool memcheck python3 scripts/probe_tma.py --small

Every case runs inside its own try/except and prints its error, so one failure never hides the
rest. Correctness: inputs uniform in [-1, 1) rounded to the input type, C poisoned with NaN
(padding columns too: they must stay NaN), a float64 reference from the same rounded inputs, and
the componentwise error max |C - ref| / (|A||B|) beside cupy.matmul's (or torch's for bfloat16)
in the same run. Bound: output rounding u (2^-11 float16, 2^-8 bfloat16) plus K * 2^-23 for the
float32 accumulation (tensor cores may truncate each add). Speed: CUDA events, warm-up, L2
flushed before each repeat, median. A table of every timing is printed last.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from tiled_matmul.bits16 import INF_BITS, NAN_BITS, componentwise_error, error_bound, to_bits, to_f64  # noqa: E402

RESULTS: list[tuple] = []  # (case, dtype, config, ms, tflops, ref_ms, ref_tflops, note)
FAILURES: list[str] = []


def log(msg: str) -> None:
    print(msg, flush=True)


@contextmanager
def guarded(name: str):
    """Run a case; an exception is printed and counted as a failure, and the probe goes on."""
    try:
        yield
    except Exception:  # noqa: BLE001
        log(f"ERROR {name}:\n{traceback.format_exc()}")
        FAILURES.append(name)


def out_f64(c, dtype: str, out_bits: int):
    import cupy as cp

    if out_bits == 32:
        return c.astype(cp.float64)
    return to_f64(c.view(cp.uint16), dtype)


def operand(rows: int, cols: int, pitch: int, dtype: str, seed: int):
    """(bits view rows x cols of a rows x pitch buffer, its float64 values)."""
    import cupy as cp

    rng = cp.random.default_rng(seed)
    full = to_bits(rng.uniform(-1.0, 1.0, (rows, pitch), dtype=cp.float32), dtype)
    view = full[:, :cols]
    return view, to_f64(view, dtype)


def cublas_matmul(a_bits, b_bits, dtype: str):
    """(callable computing the library's a @ b, its name), or (None, why)."""
    import cupy as cp

    if dtype == "float16":
        a16, b16 = cp.ascontiguousarray(a_bits).view(cp.float16), cp.ascontiguousarray(b_bits).view(cp.float16)
        return (lambda: cp.matmul(a16, b16)), "cupy.matmul"
    try:
        import ml_dtypes

        abf = cp.ascontiguousarray(a_bits).view(ml_dtypes.bfloat16)
        bbf = cp.ascontiguousarray(b_bits).view(ml_dtypes.bfloat16)
        cp.matmul(abf[:8, :8], bbf[:8, :8])
        return (lambda: cp.matmul(abf, bbf)), "cupy.matmul"
    except Exception as exc:  # noqa: BLE001 - fall back to torch
        why = f"cupy bfloat16 matmul unavailable ({type(exc).__name__}: {exc})"
    try:
        import torch

        ta = torch.from_dlpack(cp.ascontiguousarray(a_bits).view(cp.int16)).view(torch.bfloat16)
        tb = torch.from_dlpack(cp.ascontiguousarray(b_bits).view(cp.int16)).view(torch.bfloat16)
        return (lambda: torch.matmul(ta, tb)), "torch.matmul"
    except Exception as exc:  # noqa: BLE001
        return None, f"{why}; torch unavailable ({type(exc).__name__}: {exc})"


def lib_out_f64(c, dtype: str):
    """A library result (cupy array or torch tensor) as float64."""
    import cupy as cp

    if not isinstance(c, cp.ndarray):  # a torch tensor
        import torch

        return to_f64(cp.from_dlpack(c.contiguous().view(torch.int16)).view(cp.uint16), dtype)
    if c.dtype == cp.float16:
        return c.astype(cp.float64)
    return to_f64(c.view(cp.uint16), dtype)


# ---- cases ---------------------------------------------------------------------------------------
def verdict(name: str, ok: bool, detail: str) -> None:
    log(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
    if not ok:
        FAILURES.append(name)


def check_case(cfg, dtype: str, M: int, N: int, K: int, pad: int = 0, lib: bool = True) -> None:
    """One correctness case. Row pitches are the column counts rounded up to multiples of 8 (TMA's
    16-byte rule), plus 8 * `pad` more elements; C's padding must stay NaN."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    def pitch(cols):
        return -(-cols // 8) * 8 + 8 * pad

    name = f"check {M}x{N}x{K}{' padded' if pad or K % 8 or N % 8 else ''} {dtype} {cfg.tag()}"
    with guarded(name):
        a, a64 = operand(M, K, pitch(K), dtype, 1)
        b, b64 = operand(K, N, pitch(N), dtype, 2)
        ldc = pitch(N)
        if cfg.out_bits == 32:
            cbuf = cp.full((M, ldc), cp.nan, dtype=cp.float32)
        else:
            cbuf = cp.full((M, ldc), NAN_BITS[dtype], dtype=cp.uint16)
        c = cbuf[:, :N]
        tma_matmul(a, b, c, dtype=dtype, config=cfg)
        cp.cuda.get_current_stream().synchronize()
        c64 = out_f64(c, dtype, cfg.out_bits)
        ref = a64 @ b64
        absprod = cp.abs(a64) @ cp.abs(b64)
        missed = int(cp.isnan(c64).sum())
        clobbered = int((~cp.isnan(out_f64(cbuf[:, N:], dtype, cfg.out_bits))).sum()) if ldc > N else 0
        err = componentwise_error(c64, ref, absprod)
        bound = error_bound(dtype, K, cfg.out_bits)
        lib_err, lib_name = float("nan"), "-"
        if lib and M * N * K <= 2**37:
            fn, lib_name = cublas_matmul(a, b, dtype)
            if fn is not None:
                lib_err = componentwise_error(lib_out_f64(fn(), dtype), ref, absprod)
        verdict(name, missed == 0 and clobbered == 0 and err <= bound,
                f"max |C-ref|/(|A||B|) = {err:.3e} (bound {bound:.3e}; {lib_name} {lib_err:.3e}); "
                f"NaN left {missed}, padding written {clobbered}")


def check_special(cfg, dtype: str) -> None:
    """NaN and Inf propagate as in a float64 product of the same inputs (float32 output, so that
    no finite value overflows on the way out)."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    name = f"nan/inf {dtype} {cfg.tag()}"
    with guarded(name):
        a, _ = operand(200, 80, 80, dtype, 3)
        b, _ = operand(80, 136, 136, dtype, 4)
        a[3, 5] = NAN_BITS[dtype]
        a[7, 2] = INF_BITS[dtype]
        b[9, 11] = INF_BITS[dtype]
        c = tma_matmul(a, b, dtype=dtype, config=cfg.replace(out_bits=32))
        ref = to_f64(a, dtype) @ to_f64(b, dtype)
        ok = bool(cp.all(cp.isnan(c) == cp.isnan(ref))) and bool(cp.all(cp.isinf(c) == cp.isinf(ref)))
        verdict(name, ok, f"NaN {int(cp.isnan(c).sum())} (ref {int(cp.isnan(ref).sum())}), "
                          f"Inf {int(cp.isinf(c).sum())} (ref {int(cp.isinf(ref).sum())})")


def check_rejects(cfg) -> None:
    """Unaligned row pitches are refused with a ValueError before anything launches."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    name = "rejects K=71 contiguous"
    with guarded(name):
        try:
            tma_matmul(cp.zeros((16, 71), cp.float16), cp.zeros((71, 64), cp.float16), config=cfg)
        except ValueError as exc:
            verdict(name, True, str(exc))
            return
        verdict(name, False, "no error")


def timed(fn, repeats: int, flush) -> float:
    """Median milliseconds of `fn` by CUDA events, after 3 warm-up calls, L2 flushed before each."""
    import cupy as cp

    for _ in range(3):
        fn()
    times = []
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(repeats):
        flush()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def time_case(cfgs, dtype: str, M: int, N: int, K: int, repeats: int) -> None:
    """Time every config on M x N x K against the library. Rows are padded to multiples of 8
    elements for our kernel (TMA's rule); the library gets contiguous copies."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    flops = 2.0 * M * N * K
    shape = f"{M}x{N}x{K}" if (M, N) != (K, K) else f"{K}^3"
    scratch = cp.empty(256 * 2**20, dtype=cp.uint8)  # > the 50 MB L2

    def flush():
        scratch.fill(1)

    with guarded(f"operands {shape} {dtype}"):
        a, _ = operand(M, K, -(-K // 8) * 8, dtype, 5)
        b, _ = operand(K, N, -(-N // 8) * 8, dtype, 6)
    if FAILURES and FAILURES[-1] == f"operands {shape} {dtype}":
        return
    ref_ms, lib_name = float("nan"), "-"
    with guarded(f"library {shape} {dtype}"):
        fn, lib_name = cublas_matmul(a, b, dtype)
        if fn is not None:
            ref_ms = timed(fn, repeats, flush)
        else:
            log(f"note: no library {dtype} matmul: {lib_name}")
    for cfg in cfgs:
        name = shape
        with guarded(f"time {name} {dtype} {cfg.tag()}"):
            c = cp.empty((M, N), dtype=cp.float32 if cfg.out_bits == 32 else cp.uint16)
            ms = timed(lambda: tma_matmul(a, b, c, dtype=dtype, config=cfg), repeats, flush)
            RESULTS.append((name, dtype, cfg.tag(), ms, flops / ms / 1e9, ref_ms, flops / ref_ms / 1e9, lib_name))
            log(f"time {name} {dtype} {cfg.tag()}: {ms:.3f} ms = {flops / ms / 1e9:.1f} TF/s; {lib_name} "
                f"{ref_ms:.3f} ms = {flops / ref_ms / 1e9:.1f} TF/s; ratio {ref_ms / ms:.3f}")


def host_overhead(cfg, dtype: str, calls: int = 2000) -> None:
    """Host microseconds per call at 64^3 (launches queued, not waited for): through tma_matmul
    (array checks included) and through the config's launch alone (the MatmulKernel path)."""
    import cupy as cp

    from tiled_matmul.compile import get_kernel
    from tiled_matmul.strategies.wgmma_tma import STRATEGY, tma_matmul

    with guarded("host overhead"):
        a, _ = operand(64, 64, 64, dtype, 7)
        b, _ = operand(64, 64, 64, dtype, 8)
        c = cp.empty((64, 64), dtype=cp.uint16)
        kern = get_kernel(STRATEGY, cfg, dtype, cp.cuda.Device().id)
        stream = cp.cuda.get_current_stream()
        per_call = []
        for call in (lambda: tma_matmul(a, b, c, dtype=dtype, config=cfg),
                     lambda: cfg.launch_strided(kern, a.data.ptr, 64, b.data.ptr, 64, c.data.ptr, 64, 64, 64, 64,
                                                stream.ptr, 2)):
            for _ in range(20):
                call()
            stream.synchronize()
            t0 = time.perf_counter()
            for _ in range(calls):
                call()
            per_call.append((time.perf_counter() - t0) / calls * 1e6)
            stream.synchronize()
        RESULTS.append(("host 64^3 (us/call)", dtype, cfg.tag(), per_call[0], 0.0, per_call[1], 0.0,
                        "tma_matmul | launch"))
        log(f"host overhead 64^3 {dtype}: tma_matmul {per_call[0]:.1f} us/call, launch {per_call[1]:.1f} us/call "
            "(target <= 15)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--small", action="store_true", help="two small shapes, default config, no timing (sanitizer runs)")
    p.add_argument("--configs", choices=("default", "all"), default=None,
                   help="configs to check and time (default: all; with --small, the default config)")
    p.add_argument("--dtypes", default="float16,bfloat16")
    p.add_argument("--sizes", default="4096,8192", help="cube sizes to time")
    p.add_argument("--no-ragged", dest="ragged", action="store_false", help="skip timing 3001x2999x3007")
    args = p.parse_args()

    with guarded("setup"):
        import cupy as cp

        import tiled_matmul as tm

        dev = cp.cuda.Device()
        log(f"device {dev.id}: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}, "
            f"sm_{dev.compute_capability}, {dev.attributes['MultiProcessorCount']} SMs; CuPy {cp.__version__}")
        entry = tm.STRATEGIES["wgmma_tma"]
    if FAILURES:
        return 1
    dtypes = [d for d in args.dtypes.split(",") if d]
    which = args.configs or ("default" if args.small else "all")
    cfgs = [entry.default] if which == "default" else list(entry.configs)

    # compile first: a config that does not compile says so once and is skipped after
    good = []
    for cfg in cfgs:
        before = len(FAILURES)
        for dt in dtypes:
            with guarded(f"compile {cfg.tag()} {dt}"):
                t0 = time.perf_counter()
                k = tm.kernel("wgmma_tma", **cfg.params()).compiled(dt)
                log(f"compiled {cfg.tag()} {dt}: {k.num_regs} registers, {k.smem_bytes} B smem, "
                    f"{time.perf_counter() - t0:.1f} s")
        if len(FAILURES) == before:
            good.append(cfg)

    small = [(64, 64, 64, 0), (129, 257, 71, 1)]
    big = [(1, 8, 8, 0), (7, 33, 127, 0), (1000, 1000, 1000, 0), (3001, 2999, 3007, 0), (4096, 4096, 4096, 0)]
    for dt in dtypes:
        for cfg in good:
            for M, N, K, pad in small + ([] if args.small else big):
                check_case(cfg, dt, M, N, K, pad)
            if not args.small:
                check_case(cfg.replace(out_bits=32), dt, 129, 257, 71, 1, lib=False)
        if not args.small and good:
            check_special(good[0], dt)
    check_rejects(entry.default)
    if not args.small:
        for dt in dtypes:
            if good:
                host_overhead(good[0], dt)
            for n in (int(s) for s in args.sizes.split(",") if s):
                time_case(good, dt, n, n, n, 20 if n <= 4096 else 10)
            if args.ragged:
                time_case(good, dt, 3001, 2999, 3007, 20)

    log("\n| case | dtype | config | ms | TF/s | library ms | library TF/s | library | ratio |")
    log("|---|---|---|---:|---:|---:|---:|---|---:|")
    for case, dt, tag, ms, tf, rms, rtf, lib in RESULTS:
        ratio = rms / ms if ms and rms == rms else float("nan")
        log(f"| {case} | {dt} | {tag} | {ms:.4f} | {tf:.1f} | {rms:.4f} | {rtf:.1f} | {lib} | {ratio:.3f} |")
    log(f"\n{len(FAILURES)} failure(s)" + (": " + "; ".join(FAILURES) if FAILURES else ""))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
