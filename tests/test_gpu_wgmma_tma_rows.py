"""GPU checks of wgmma_tma's b_rows (B read by the producer warpgroup's cp.async: a 16-bit B whose
rows TMA cannot address, read in place instead of copied into padded rows), and of
wgmma_tma_split_k's (the same producer over its (tile, slice) units). Marked `gpu`; skipped off
Hopper through the `name` parameter.

Data and tolerance as in test_gpu_wgmma_tma: uniform [-1, 1) rounded to the 16-bit type (held as
uint16 bits), C poisoned with NaN (its padding columns too), the componentwise error max |C - ref| /
(|A||B|) against a float64 product of the same inputs within bits16.error_bound (the output's
rounding plus K * 2^-23 of float32 accumulation). Every copy size shows up: B's base address on 8
or 4 bytes and its row pitch a multiple of 8 or 4 bytes give the four line patterns (all 8-byte
copies, all 4-byte, every other line of each).
"""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.bits16 import INF_BITS, NAN_BITS, componentwise_error, error_bound, to_bits, to_f64

pytestmark = pytest.mark.gpu

NAME = ["wgmma_tma"]
ENTRY = tm.STRATEGIES["wgmma_tma"]
DTYPES = ["float16", "bfloat16"]
ROWS = [cfg.replace(b_rows=1) for cfg in ENTRY.configs if cfg.cluster_m == 1]
SHAPES = [(1, 1, 1), (2, 2, 2), (7, 7, 7), (33, 33, 33), (127, 127, 127), (129, 129, 129), (1, 300, 70),
          (300, 1, 70), (64, 10, 1000), (1000, 1000, 1000), (130, 702, 9), (64, 10186, 4000)]
# (B's base offset in elements from a 256-byte allocation, extra pitch elements past N rounded up
# to even): base on 8 bytes or on 4 only, times pitch a multiple of 8 bytes or of 4 only
PLACES = [(0, 0), (2, 0), (0, 2), (2, 2)]


def _bits(rows, cols, dtype, seed, pitch=None, offset=0):
    """A rows x cols view of uniform [-1, 1) values in the 16-bit type's bits, `pitch` elements per
    row, starting `offset` elements into its allocation."""
    import cupy as cp

    pitch = pitch or cols
    rng = cp.random.default_rng(seed)
    full = to_bits(rng.uniform(-1.0, 1.0, (rows * pitch + offset,), dtype=cp.float32), dtype)
    return full[offset:].reshape(rows, pitch)[:, :cols]


def _b(K, N, dtype, seed, place):
    """B with its base and pitch per `place` (see PLACES): pitch = N rounded up to 4 elements, plus
    place[1], so pitch % 4 is 0 or 2 elements (8 or 4 bytes)."""
    offset, extra = place
    return _bits(K, N, dtype, seed, -(-N // 4) * 4 + extra, offset)


def _a(M, K, dtype, seed):
    return _bits(M, K, dtype, seed, -(-K // 8) * 8)  # rows TMA can read


def _check(a, b, c, dtype, out_bits=16):
    import cupy as cp

    a64, b64 = to_f64(a, dtype), to_f64(b, dtype)
    ref, absprod = a64 @ b64, cp.abs(a64) @ cp.abs(b64)
    got = c.astype(cp.float64) if out_bits == 32 else to_f64(c, dtype)
    assert not bool(cp.isnan(got).any()), f"{int(cp.isnan(got).sum())} outputs never written"
    err = componentwise_error(got, ref, absprod)
    assert err <= error_bound(dtype, a.shape[1], out_bits), err
    return err


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cfg", ROWS, ids=lambda c: c.tag())
def test_b_rows_every_config_shape_and_placement_against_float64(name, cfg, dtype):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    for i, (M, N, K) in enumerate(SHAPES):
        for place in PLACES if M * N * K < 10**8 else PLACES[1:2]:
            a, b = _a(M, K, dtype, 10 * i + 1), _b(K, N, dtype, 10 * i + 2, place)
            assert cfg.rows_problem(b.data.ptr, K, N, b.strides[0] // 2) is None
            cbuf = cp.full((M, N + 3), NAN_BITS[dtype], dtype=cp.uint16)
            c = cbuf[:, :N]
            tma_matmul(a, b, c, dtype=dtype, config=cfg)
            _check(a, b, c, dtype)
            assert bool((cbuf[:, N:] == NAN_BITS[dtype]).all()), f"a store landed past N ({M}x{N}x{K}, {place})"


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_b_rows_float32_output(name, dtype):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    cfg = ENTRY.default.replace(cluster_m=1, b_rows=1, out_bits=32)
    for M, N, K in [(33, 1002, 130), (256, 258, 512)]:
        a, b = _a(M, K, dtype, 3), _b(K, N, dtype, 4, (2, 2))
        c = cp.full((M, N), cp.nan, dtype=cp.float32)
        tma_matmul(a, b, c, dtype=dtype, config=cfg)
        _check(a, b, c, dtype, out_bits=32)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_b_rows_nan_and_inf_propagate(name, dtype):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    a, b = _a(200, 80, dtype, 5), _b(80, 298, dtype, 6, (2, 2))
    a[3, 5] = NAN_BITS[dtype]
    a[7, 2] = INF_BITS[dtype]
    b[9, 11] = INF_BITS[dtype]
    b[9, 290] = INF_BITS[dtype] | 0x8000  # -Inf in the ragged last tile column
    b[79, 297] = NAN_BITS[dtype]  # the last element B has
    c = tma_matmul(a, b, dtype=dtype, config=ENTRY.default.replace(cluster_m=1, b_rows=1, out_bits=32))
    ref = to_f64(a, dtype) @ to_f64(b, dtype)
    assert bool((cp.isnan(c) == cp.isnan(ref)).all()) and bool((cp.isinf(c) == cp.isinf(ref)).all())
    assert bool((cp.sign(c[cp.isinf(ref)]) == cp.sign(ref[cp.isinf(ref)])).all())


def _count_pads(monkeypatch):
    from tiled_matmul import pad

    calls = []
    real = pad.pad_into
    monkeypatch.setattr(pad, "pad_into", lambda *a, **k: (calls.append(a[2:4]), real(*a, **k))[1])
    return calls


def _typed(bits, dtype):
    """uint16 bits viewed as the 16-bit type (bfloat16: ml_dtypes')."""
    import ml_dtypes
    import numpy as np

    return bits.view(np.float16 if dtype == "float16" else ml_dtypes.bfloat16)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_and_auto_read_such_b_in_place(name, dtype, monkeypatch):
    """tm.matmul(strategy="wgmma_tma") on a B of even N % 8 != 0 under a C of one tile row: the
    b_rows sibling reads it, nothing is copied into padded rows, and the product is right (auto
    too); a B of odd N (rows off 4 bytes), or more tile rows (rows_sibling), is still copied, and
    right."""
    import cupy as cp

    calls = _count_pads(monkeypatch)
    for M, N, K in [(64, 10186, 4000), (9, 1002, 512), (100, 130, 64), (64, 10188, 4000)]:
        a = _a(M, K, dtype, 7)
        b = cp.ascontiguousarray(_b(K, N, dtype, 8, (0, 0)))
        assert N % 8 != 0
        c = tm.matmul(_typed(a, dtype), _typed(b, dtype), strategy="wgmma_tma")
        _check(a, b, c.view(cp.uint16), dtype)
        assert calls == [], f"copies into padded rows: {calls}"
        # auto may pick another rung here (which may pad): right either way
        _check(a, b, tm.matmul(_typed(a, dtype), _typed(b, dtype)).view(cp.uint16), dtype)
        calls.clear()
    a, b = _a(64, 512, dtype, 9), _bits(512, 1001, dtype, 10)
    c = tm.matmul(_typed(a, dtype), _typed(b, dtype), strategy="wgmma_tma")
    _check(a, b, c.view(cp.uint16), dtype)
    assert calls, "B with odd rows went in place: b_rows cannot read it"
    calls.clear()
    a, b = _a(300, 64, dtype, 11), cp.ascontiguousarray(_b(64, 130, dtype, 12, (0, 0)))
    c = tm.matmul(_typed(a, dtype), _typed(b, dtype), strategy="wgmma_tma")
    _check(a, b, c.view(cp.uint16), dtype)
    assert calls, "B under three tile rows went in place: rows_sibling keeps b_rows to one"


@pytest.mark.parametrize("name", NAME)
def test_gemm_epilogue_on_b_rows(name, monkeypatch):
    """An epilogue (alpha, beta's C, bias, relu) on the b_rows sibling: the same bits as with B
    copied into padded rows first (same products in the same order, same epilogue)."""
    import cupy as cp

    calls = _count_pads(monkeypatch)
    M, N, K = 120, 1002, 320  # one tile row of the default 128-row tile: the b_rows sibling
    a = _a(M, K, "float16", 11).view(cp.float16)
    b = _b(K, N, "float16", 12, (2, 0)).view(cp.float16)
    c0 = _bits(M, N, "float16", 13).view(cp.float16)
    bias = cp.asarray(cp.random.default_rng(14).uniform(-1, 1, N), dtype=cp.float32)
    kw = dict(alpha=0.5, beta=-2.0, bias=bias, activation="relu", strategy="wgmma_tma")
    got = tm.gemm(a, b, c0, **kw)
    assert calls == []
    padded = cp.zeros((K, N + 6), cp.float16)
    padded[:, :N] = b
    want = tm.gemm(a, padded[:, :N], c0, **kw)  # pitch 1008: TMA reads it as it lies
    assert bool((got.view(cp.uint16) == want.view(cp.uint16)).all())
    ref = cp.maximum(0.5 * (a.astype(cp.float64) @ b.astype(cp.float64)) - 2.0 * c0.astype(cp.float64)
                     + bias.astype(cp.float64), 0)
    assert float(cp.max(cp.abs(got.astype(cp.float64) - ref))) <= 2.0**-10 * float(cp.max(cp.abs(ref))) + K * 2.0**-20


SPLIT = tm.STRATEGIES["wgmma_tma_split_k"]
#: one tile row (M <= 128) on a B of even N % 8 != 0: long K, an odd K, slices left empty (K = 100)
SPLIT_SHAPES = [(1, 2, 1000), (7, 10, 4097), (64, 1002, 8192), (128, 130, 300), (33, 4094, 2000), (16, 6, 100)]


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_split_k_reads_such_b_in_place_with_the_padded_paths_bits(name, dtype, monkeypatch):
    """wgmma_tma_split_k's b_rows sibling: every config on B of even N % 8 != 0 under one tile row,
    B's base on 8 bytes and on 4 only, into NaN-poisoned C: right against float64, nothing copied
    into padded rows, and bit for bit the output of the same config with B copied into padded
    rows first (the same stage contents, slices and fixed-order sum); two calls give the same bits."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma_split_k import WgmmaTmaSplitKConfig

    calls = _count_pads(monkeypatch)
    for cfg in SPLIT.configs:
        k = tm.kernel("wgmma_tma_split_k", **cfg.params())
        for i, (M, N, K) in enumerate(SPLIT_SHAPES):
            for offset in (0, 2):
                a, b = _a(M, K, dtype, 20 * i + 1), _bits(K, N, dtype, 20 * i + 2, N, offset)
                assert b.flags.c_contiguous and b.data.ptr % 16 == 2 * offset
                c = cp.full((M, N), NAN_BITS[dtype], dtype=cp.uint16)
                k(_typed(a, dtype), _typed(b, dtype), out=_typed(c, dtype))
                _check(a, b, c, dtype)
                # (A of an odd K is copied into padded rows: only B's copy counts here)
                assert (K, N) not in calls, f"{cfg.tag()} {M}x{N}x{K}: B copied into padded rows"
                again = k(_typed(a, dtype), _typed(b, dtype)).view(cp.uint16)
                monkeypatch.setattr(WgmmaTmaSplitKConfig, "B_ROWS_SIBLING", False)
                padded = k(_typed(a, dtype), _typed(b, dtype)).view(cp.uint16)
                monkeypatch.setattr(WgmmaTmaSplitKConfig, "B_ROWS_SIBLING", True)
                assert (K, N) in calls, "B_ROWS_SIBLING off did not copy B"
                calls.clear()
                assert bool((again == c).all()) and bool((padded == c).all()), (cfg.tag(), M, N, K, offset)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_split_k_b_rows_nan_and_inf_propagate(name, dtype):
    import cupy as cp

    a, b = _a(100, 3000, dtype, 31), _bits(3000, 298, dtype, 32, 298, 2)
    a[3, 5] = NAN_BITS[dtype]
    a[7, 2] = INF_BITS[dtype]
    b[9, 11] = INF_BITS[dtype]
    b[2999, 290] = INF_BITS[dtype] | 0x8000  # -Inf in the last slice and the ragged last tile column
    b[1500, 297] = NAN_BITS[dtype]
    c = tm.kernel("wgmma_tma_split_k", split_k=8)(_typed(a, dtype), _typed(b, dtype)).view(cp.uint16)
    got, ref = to_f64(c, dtype), to_f64(a, dtype) @ to_f64(b, dtype)
    assert bool((cp.isnan(got) == cp.isnan(ref)).all()) and bool((cp.isinf(got) == cp.isinf(ref)).all())
    assert bool((cp.sign(got[cp.isinf(ref)]) == cp.sign(ref[cp.isinf(ref)])).all())
