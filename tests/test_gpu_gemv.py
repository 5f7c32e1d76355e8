"""GPU checks of the GEMV rungs, gemv_xb and gemv_xb_tma (small M) and gemv_ax (small N) (marked
`gpu`).

Every config of each rung, in each dtype it computes (gemv_xb_tma: float32), on skinny shapes with ragged sizes (including ones whose
K is split at launch into a workspace and reduced), unaligned operands, split-K determinism, and
NaN/Inf propagation against cupy.matmul.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.device import device_limits
from tiled_matmul.dtypes import as_dtype

from .conftest import poisoned

pytestmark = pytest.mark.gpu

GEMV = ("gemv_xb", "gemv_xb_tma", "gemv_ax")
DTYPES = (np.float32, np.float64)
#: (rung, dtype) pairs the rungs compute
RUNG_DTYPES = [pytest.param(n, d, id=f"{n}-{np.dtype(d).name}") for n in GEMV for d in DTYPES
               if tm.STRATEGIES[n].supports(np.dtype(d).name)]
#: the thin side (M for gemv_xb, N for gemv_ax), K, and the wide side
THIN = (1, 2, 7, 8, 16, 33)
DEPTH = (1, 7, 129, 1000, 65536)
WIDE = (1, 3, 1000, 8192)


def _uniform(gen, rows, cols, dtype):
    """Device values in [-1, 1), drawn on the GPU in `dtype` and scaled in place: the largest
    operands here have 2^29 elements, and temporaries of that size (8 GiB of float64 at the peak,
    as this once did) made the GEMV files run out of memory beside other test processes."""
    x = gen.random((rows, cols), dtype=np.dtype(dtype))
    x *= 2
    x -= 1
    return x


def _shape(name, thin, K, wide):
    return (thin, wide, K) if name.startswith("gemv_xb") else (wide, thin, K)


def _splits(name, cfg, M, N, K, dtype):
    return cfg.k_splits(M, N, K, device_limits().sm_count, dtype)


@pytest.mark.parametrize("name,dtype", RUNG_DTYPES)
@pytest.mark.parametrize("K", DEPTH)
def test_every_config_on_skinny_shapes(name, dtype, K):
    """All THIN x WIDE shapes at this K, every config of the rung on the same inputs, into a
    NaN-poisoned output, checked against a float64 reference."""
    import cupy as cp

    gen = cp.random.default_rng(K)
    kernels = [tm.kernel(name, **cfg.params()) for cfg in tm.STRATEGIES[name].configs_for(dtype)]
    split_seen = False
    for thin in THIN:
        for wide in WIDE:
            M, N, K_ = _shape(name, thin, K, wide)
            a, b = _uniform(gen, M, K_, dtype), _uniform(gen, K_, N, dtype)
            for k in kernels:
                out = poisoned((M, N), dtype)
                assert k(a, b, out=out) is out
                report = tm.check(out, a, b)
                assert report.passed, (name, k.config.params(), (M, N, K_), report)
                split_seen |= _splits(name, k.config, M, N, K_, np.dtype(dtype).name) > 1
            del a, b
    if K >= 1000:
        assert split_seen, "no shape at this K took the split-K path"


@pytest.mark.parametrize("name,dtype", RUNG_DTYPES)
def test_unaligned_operands(name, dtype):
    """C-contiguous views that start one element into their buffer: not 16-byte aligned, so the
    element paths run (the shapes have K and N multiples of 4, so alignment is the only cause),
    with and without a split of K."""
    import cupy as cp

    gen = cp.random.default_rng(7)

    def unaligned(rows, cols):
        buf = cp.empty(rows * cols + 1, dtype=dtype)
        view = buf[1:].reshape(rows, cols)
        view[...] = _uniform(gen, rows, cols, dtype)
        assert view.flags.c_contiguous and view.data.ptr % 16 != 0
        return view

    # split (per the rung and config) or not: 1x8192x4096 splits on gemv_xb, 256x4x4096 on gemv_ax
    shapes = [(1, 8192, 4096), (4, 1000, 1000), (8192, 1, 4096), (256, 4, 4096), (1000, 4, 1000), (33, 8, 128)]
    for cfg in tm.STRATEGIES[name].configs_for(dtype):
        for M, N, K in shapes:
            for which in ("a", "b", "out", "all"):
                a = unaligned(M, K) if which in ("a", "all") else _uniform(gen, M, K, dtype)
                b = unaligned(K, N) if which in ("b", "all") else _uniform(gen, K, N, dtype)
                out = unaligned(M, N) if which in ("out", "all") else cp.empty((M, N), dtype=dtype)
                out.fill(np.nan)
                tm.matmul(a, b, strategy=name, out=out, **cfg.params())
                report = tm.check(out, a, b)
                assert report.passed, (name, cfg.params(), (M, N, K), which, report)


#: x·B shapes whose rows of B are not 16-byte multiples (N % 4 != 0): gemv_xb_tma reads B folded,
#: 2 or 4 rows to a row of its tensor map, the last K % fold rows from B's address (K = 3: fewer
#: rows than a fold, so B is copied into padded rows instead); some split K
FOLDED = [(1, 4097, 8191), (7, 1001, 129), (17, 3287, 1263), (3, 2050, 4099), (16, 999, 64), (2, 4094, 65534),
          (5, 4095, 3)]


@pytest.mark.parametrize("cfg", tm.STRATEGIES["gemv_xb_tma"].configs_for("float32"), ids=lambda c: c.tag())
def test_gemv_xb_tma_reads_b_folded(cfg):
    import cupy as cp

    gen = cp.random.default_rng(17)
    dt = as_dtype("float32")
    folded = 0
    for M, N, K in FOLDED:
        a, b = _uniform(gen, M, K, np.float32), _uniform(gen, K, N, np.float32)
        fold = cfg.fold(dt, K, N, b.data.ptr, N)
        assert fold == (0 if K < 4 or N < cfg.bn else 4 // np.gcd(N, 4)), ((M, N, K), fold)
        folded += fold > 1
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy="gemv_xb_tma", out=out, **cfg.params())
        report = tm.check(out, a, b)
        assert report.passed, (cfg.params(), (M, N, K), fold, report)
        c2 = tm.matmul(a, b, strategy="gemv_xb_tma", **cfg.params())
        assert bool((out.view(np.int32) == c2.view(np.int32)).all()), (cfg.params(), (M, N, K))
    assert folded >= 5


def test_gemv_xb_tma_folded_b_propagates_nan_and_inf(rng):
    """Inf and NaN in a folded B's last rows (read from its address), in x's last columns, and in
    the columns just past a row's end (which a folded box reads as the next row's): as cupy.matmul."""
    import cupy as cp

    for M, N, K in [(7, 1001, 131), (17, 3287, 1263), (1, 4097, 8191)]:
        a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np.float32))
        b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(np.float32))
        b[K - 1, N // 3] = np.inf          # a row past the last whole fold (K % 4 != 0 here)
        b[K - 2, 0] = np.nan
        b[K // 2, 0] = -np.inf             # column 0: what the box of the row before reads past N
        a[M - 1, K - 1] = np.inf           # x's last column: meets the rows read from B's address
        a[0, K // 2 + 1] = 0.0
        b[K // 2 + 1, N - 1] = np.inf      # 0 * Inf: NaN in row 0, column N - 1
        ref = cp.matmul(a, b)
        for cfg in tm.STRATEGIES["gemv_xb_tma"].configs_for("float32"):
            out = poisoned((M, N), np.float32)
            tm.matmul(a, b, strategy="gemv_xb_tma", out=out, **cfg.params())
            assert cp.array_equal(cp.isnan(out), cp.isnan(ref)), (cfg.params(), (M, N, K))
            assert cp.array_equal(cp.isposinf(out), cp.isposinf(ref)), (cfg.params(), (M, N, K))
            assert cp.array_equal(cp.isneginf(out), cp.isneginf(ref)), (cfg.params(), (M, N, K))
            fin = cp.isfinite(ref)
            assert cp.allclose(out[fin], ref[fin], rtol=1e-4, atol=1e-4)
        assert int(cp.isnan(ref).sum()) > 0 and int(cp.isinf(ref).sum()) > 0


DETERMINISM = {"gemv_xb": [(1, 8192, 8192), (3, 1000, 65536), (8, 4096, 1000), (1, 1000, 65536)],
               "gemv_ax": [(256, 1, 65536), (100, 3, 65536), (33, 8, 4096)]}
DETERMINISM["gemv_xb_tma"] = DETERMINISM["gemv_xb"]


@pytest.mark.parametrize("name,dtype", RUNG_DTYPES)
def test_split_k_is_deterministic(name, dtype):
    """Sums over K that are not one thread's (slices of K in a workspace, gemv_xb's K groups in a
    block): two runs give bit-identical results, and every config splits K on some shape here."""
    import cupy as cp

    gen = cp.random.default_rng(11)
    dt = np.dtype(dtype)
    ints = np.int32 if dt.itemsize == 4 else np.int64
    split = {cfg: 0 for cfg in tm.STRATEGIES[name].configs_for(dtype)}
    for M, N, K in DETERMINISM[name]:
        a, b = _uniform(gen, M, K, dtype), _uniform(gen, K, N, dtype)
        for cfg in split:
            split[cfg] += _splits(name, cfg, M, N, K, dt.name) > 1
            k = tm.kernel(name, **cfg.params())
            c1, c2 = k(a, b), k(a, b)
            assert bool((c1.view(ints) == c2.view(ints)).all()), (name, cfg.params(), (M, N, K))
            assert tm.check(c1, a, b).passed
    assert all(split.values()), [cfg.params() for cfg, n in split.items() if not n]


@pytest.mark.parametrize("name,dtype", RUNG_DTYPES)
def test_nan_and_inf_propagate_like_cupy_matmul(name, dtype, rng):
    import cupy as cp

    xb = [(1, 8192, 8192), (7, 1000, 129), (2, 33, 7), (1, 3, 4096)]
    shapes = {"gemv_xb": xb, "gemv_xb_tma": xb, "gemv_ax": [(8192, 1, 8192), (1000, 7, 129), (33, 2, 7), (3, 1, 4096)]}[name]
    for M, N, K in shapes:
        a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(dtype))
        b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(dtype))
        for arr in (a, b):  # NaN, +Inf, -Inf, and a zero next to them (0 * Inf = NaN)
            flat = arr.ravel()
            idx = rng.choice(flat.size, size=min(flat.size, 6), replace=False)
            for j, v in zip(idx, [np.nan, np.inf, -np.inf, np.inf, 0.0, -np.inf]):
                flat[int(j)] = v
        a[M // 2, :] = 0.0  # a zero row meets any Inf in B: NaN there
        a[M // 2, K // 2] = np.inf
        ref = cp.matmul(a, b)
        for cfg in tm.STRATEGIES[name].configs_for(dtype):
            out = poisoned((M, N), dtype)
            tm.matmul(a, b, strategy=name, out=out, **cfg.params())
            assert cp.array_equal(cp.isnan(out), cp.isnan(ref)), (cfg.params(), (M, N, K))
            assert cp.array_equal(cp.isposinf(out), cp.isposinf(ref)), (cfg.params(), (M, N, K))
            assert cp.array_equal(cp.isneginf(out), cp.isneginf(ref)), (cfg.params(), (M, N, K))
            fin = cp.isfinite(ref)
            assert cp.allclose(out[fin], ref[fin], rtol=1e-4, atol=1e-4)
        assert int(cp.isnan(ref).sum()) > 0


@pytest.mark.parametrize("name", GEMV)
def test_split_launch_on_a_non_default_stream(name):
    """The workspace, the slices and the reduction all go on the caller's stream."""
    import cupy as cp

    M, N, K = (1, 8192, 8192) if name.startswith("gemv_xb") else (256, 1, 65536)
    gen = cp.random.default_rng(3)
    a, b = _uniform(gen, M, K, np.float32), _uniform(gen, K, N, np.float32)
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        c = tm.matmul(a, b, strategy=name)
        done = stream.record()
    done.synchronize()
    assert tm.check(c, a, b).passed


#: float32 products a little wider than GEMV_MAX that stream a large operand
#: (heuristic._skinny_chunks): x·B in chunks of 8 or 16 rows, A·x in chunks of 8 columns
#: (x·B with 17-32 rows over dispatch.XB_CHUNKS_MAX_STREAM elements of B leaves the chunks:
#: tests/test_gpu_narrow.py)
@pytest.mark.parametrize("shape", [(9, 4096, 4096), (20, 4000, 3000), (32, 4096, 1028), (13, 2048, 2052),
                                   (16384, 9, 4096), (13126, 15, 760), (5001, 16, 1003)])
def test_auto_streams_slightly_wider_float32_products_in_chunks(shape, fresh_tunedb):
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    choice = dispatch.choose(M, N, K, "float32")
    assert choice.source == "heuristic" and choice.strategy == ("gemv_xb_tma" if M < N else "gemv_ax"), choice
    gen = cp.random.default_rng(9)
    a, b = _uniform(gen, M, K, np.float32), _uniform(gen, K, N, np.float32)
    out = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=out)
    report = tm.check(out, a, b)
    assert report.passed, (shape, choice, report)


#: large streams, and small ones with a K one tile would walk alone (heuristic.GEMV_MIN_K)
@pytest.mark.parametrize("shape", [(1, 8192, 8192), (4, 4096, 4096), (8192, 1, 8192), (8192, 8, 4096),
                                   (4, 60, 655), (1, 4, 12791), (93, 1, 1397), (7, 33, 2001), (3, 5, 513),
                                   (1, 91, 397), (13, 5, 282), (6, 45, 6043), (8, 236, 153), (6, 54074, 1474)])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_auto_runs_the_gemv_rungs_on_skinny_shapes(shape, dtype, fresh_tunedb):
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    choice = dispatch.choose(M, N, K, np.dtype(dtype).name)
    if choice.source == "heuristic" or (choice.source == "model" and np.dtype(dtype) == np.float32):
        # float32's model picks here are gemv_xb configs (dispatch.MODEL_CONFIGS)
        assert choice.strategy in (("gemv_xb", "gemv_xb_tma") if M <= 8 < N else ("gemv_ax",))
    gen = cp.random.default_rng(5)
    a, b = _uniform(gen, M, K, dtype), _uniform(gen, K, N, dtype)
    out = poisoned((M, N), dtype)
    tm.matmul(a, b, out=out)
    assert tm.check(out, a, b).passed


#: small skinny float32 products whose warp_tiled pick dispatch.MODEL_SMALL hands to the cost model
#: (its picks: gemv_ax in chunks, gemv_xb_tma, gemv_xb, warp_tiled's own tile)
SMALL_SKINNY = [(85, 25, 247), (30, 34, 228), (25, 579, 234), (12, 55, 131), (455, 15, 132), (2062, 59, 156)]


@pytest.mark.parametrize("shape", SMALL_SKINNY, ids=["x".join(map(str, s)) for s in SMALL_SKINNY])
def test_auto_small_skinny_model_picks(shape, fresh_tunedb):
    """auto on the model's pick for a small skinny output: into a NaN-poisoned C, checked against
    the float64 product (normwise and per element), and the same bits on a second call."""
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    assert dispatch.choose(M, N, K, "float32").source == "model"
    gen = cp.random.default_rng(M + N + K)
    a, b = _uniform(gen, M, K, np.float32), _uniform(gen, K, N, np.float32)
    out = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=out)
    assert tm.check(out, a, b).passed
    again = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=again)
    assert cp.array_equal(again, out), shape
