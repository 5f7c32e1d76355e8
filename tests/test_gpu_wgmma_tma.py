"""GPU checks of wgmma_tma (marked `gpu`; skipped off Hopper through the `name` parameter).

Data: uniform in [-1, 1) rounded to float16 or bfloat16, held as uint16 bits (tiled_matmul.bits16),
so nothing depends on CuPy's bfloat16 arithmetic. C is poisoned with NaN (its padding columns too),
so a tile the persistent scheduler skips, or a store past N, shows. Tolerance: the componentwise
error max |C - ref| / (|A||B|) against a float64 product of the same rounded inputs must stay
within the output's rounding (2^-11 float16, 2^-8 bfloat16; the products are exact in float32)
plus K * 2^-23 for float32 accumulation that may truncate each add (bits16.error_bound). For
float16 it is also compared with cupy.matmul's in the same run.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import tma
from tiled_matmul.bits16 import INF_BITS, NAN_BITS, componentwise_error, error_bound, to_bits, to_f64

pytestmark = pytest.mark.gpu

NAME = ["wgmma_tma"]
ENTRY = tm.STRATEGIES["wgmma_tma"]
DTYPES = ["float16", "bfloat16"]
# ragged in every dimension, single rows and columns, non-square, several waves of tiles
SHAPES = [(1, 1, 1), (2, 2, 2), (7, 7, 7), (33, 33, 33), (127, 127, 127), (129, 129, 129), (1, 300, 70),
          (300, 1, 70), (64, 8, 1000), (1000, 1000, 1000), (130, 700, 9), (3001, 2999, 3007)]


def _pitch(cols: int, extra: int = 0) -> int:
    return -(-cols // 8) * 8 + extra


def _operand(rows, cols, pitch, dtype, seed):
    import cupy as cp

    rng = cp.random.default_rng(seed)
    full = to_bits(rng.uniform(-1.0, 1.0, (rows, pitch), dtype=cp.float32), dtype)
    return full[:, :cols]


def _poisoned(rows, pitch, dtype, out_bits):
    import cupy as cp

    if out_bits == 32:
        return cp.full((rows, pitch), cp.nan, dtype=cp.float32)
    return cp.full((rows, pitch), NAN_BITS[dtype], dtype=cp.uint16)


def _f64(c, dtype, out_bits):
    import cupy as cp

    return c.astype(cp.float64) if out_bits == 32 else to_f64(c, dtype)


def _run_and_check(cfg, dtype, M, N, K, extra=0):
    """Padded pitches (multiples of 8, + extra): every shape runs; returns the error."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    a = _operand(M, K, _pitch(K, extra), dtype, 1)
    b = _operand(K, N, _pitch(N, extra), dtype, 2)
    cbuf = _poisoned(M, _pitch(N, extra), dtype, cfg.out_bits)
    c = cbuf[:, :N]
    tma_matmul(a, b, c, dtype=dtype, config=cfg)
    a64, b64 = to_f64(a, dtype), to_f64(b, dtype)
    ref, absprod = a64 @ b64, cp.abs(a64) @ cp.abs(b64)
    got = _f64(c, dtype, cfg.out_bits)
    assert not bool(cp.isnan(got).any()), f"{int(cp.isnan(got).sum())} outputs never written ({M}x{N}x{K})"
    if cbuf.shape[1] > N:
        assert bool(cp.isnan(_f64(cbuf[:, N:], dtype, cfg.out_bits)).all()), "a store landed in C's padding"
    err = componentwise_error(got, ref, absprod)
    assert err <= error_bound(dtype, K, cfg.out_bits), (cfg.tag(), dtype, (M, N, K), err)
    return err


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cfg", ENTRY.configs, ids=lambda c: c.tag())
def test_every_config_and_shape_against_float64(name, cfg, dtype):
    for M, N, K in SHAPES:
        _run_and_check(cfg, dtype, M, N, K)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_float32_output_and_wide_padding(name, dtype):
    cfg = ENTRY.default.replace(out_bits=32)
    for M, N, K in [(129, 257, 71), (1000, 520, 64)]:
        _run_and_check(cfg, dtype, M, N, K, extra=24)


@pytest.mark.parametrize("name", NAME)
def test_error_is_comparable_to_cublas_float16(name):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    M = N = K = 2048
    a, b = _operand(M, K, K, "float16", 3), _operand(K, N, N, "float16", 4)
    a64, b64 = to_f64(a, "float16"), to_f64(b, "float16")
    ref, absprod = a64 @ b64, cp.abs(a64) @ cp.abs(b64)
    ours = componentwise_error(to_f64(tma_matmul(a, b, dtype="float16"), "float16"), ref, absprod)
    lib = componentwise_error(cp.matmul(a.view(cp.float16), b.view(cp.float16)).astype(cp.float64), ref, absprod)
    # both are dominated by the float16 output rounding; ours must not be meaningfully worse
    assert ours <= max(1.5 * lib, error_bound("float16", 0)), (ours, lib)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_and_inf_propagate(name, dtype):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    a, b = _operand(200, 80, 80, dtype, 5), _operand(80, 300, 304, dtype, 6)
    a[3, 5] = NAN_BITS[dtype]
    a[7, 2] = INF_BITS[dtype]
    b[9, 11] = INF_BITS[dtype]
    b[9, 290] = INF_BITS[dtype] | 0x8000  # -Inf in the ragged last tile column
    c = tma_matmul(a, b, dtype=dtype, config=ENTRY.default.replace(out_bits=32))
    ref = to_f64(a, dtype) @ to_f64(b, dtype)
    assert bool((cp.isnan(c) == cp.isnan(ref)).all()) and bool((cp.isinf(c) == cp.isinf(ref)).all())
    assert bool((cp.sign(c[cp.isinf(ref)]) == cp.sign(ref[cp.isinf(ref)])).all())


@pytest.mark.parametrize("name", NAME)
def test_k_zero_writes_zeros_and_empty_outputs_launch_nothing(name):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    c = _poisoned(5, 16, "float16", 16)
    tma_matmul(cp.zeros((5, 0), cp.uint16), cp.zeros((0, 16), cp.uint16), c, dtype="float16")
    assert bool((c == 0).all())
    assert tma_matmul(cp.zeros((0, 8), cp.float16), cp.zeros((8, 16), cp.float16)).shape == (0, 16)
    assert tma_matmul(cp.zeros((4, 8), cp.float16), cp.zeros((8, 0), cp.float16)).shape == (4, 0)


@pytest.mark.parametrize("name", NAME)
def test_unaligned_operands_are_refused_cleanly(name):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    with pytest.raises(ValueError, match="a has rows of 71 elements"):
        tma_matmul(cp.ones((16, 71), cp.float16), cp.ones((71, 64), cp.float16))
    with pytest.raises(ValueError, match="b has rows of 33 elements"):
        tma_matmul(cp.ones((16, 64), cp.float16), cp.ones((64, 33), cp.float16))
    base = cp.ones(16 * 64 + 1, cp.float16)
    with pytest.raises(ValueError, match="not on a 16-byte boundary"):
        tma_matmul(base[1:].reshape(16, 64), cp.ones((64, 64), cp.float16))
    # the standard entry (MatmulKernel's launch, what tm.matmul and auto call) copies them to
    # padded rows instead, and the product is right (exact: small integers)
    k = tm.kernel("wgmma_tma")
    rng = np.random.default_rng(0)
    for M, N, K in [(16, 64, 71), (33, 65, 127), (129, 33, 7)]:
        a = cp.asarray(rng.integers(-4, 5, (M, K)).astype(np.float16))
        b = cp.asarray(rng.integers(-4, 5, (K, N)).astype(np.float16))
        c = cp.full((M, N), cp.nan, cp.float16)
        k.config.launch(k.compiled("float16"), a, b, c, M, N, K, 0, cp.cuda.get_current_stream())
        ref = cp.asnumpy(a).astype(np.float64) @ cp.asnumpy(b).astype(np.float64)
        assert np.array_equal(cp.asnumpy(c).astype(np.float64), ref), (M, N, K)
        assert tm.matmul(a, b, strategy="wgmma_tma").shape == (M, N)


@pytest.mark.parametrize("name", NAME)
def test_standard_launch_entry_and_map_cache(name):
    import cupy as cp

    k = tm.kernel("wgmma_tma")
    a, b = _operand(300, 200, 200, "float16", 7).view(cp.float16), _operand(200, 136, 136, "float16", 8).view(cp.float16)
    c = cp.full((300, 136), cp.nan, cp.float16)
    compiled = k.compiled("float16")
    k.config.launch(compiled, a, b, c, 300, 136, 200, 0, cp.cuda.get_current_stream())
    before = tma.MAPS.encoded
    k.config.launch(compiled, a, b, c, 300, 136, 200, 0, cp.cuda.get_current_stream())
    assert tma.MAPS.encoded == before  # the second call encodes nothing
    ref = cp.matmul(a.astype(cp.float64), b.astype(cp.float64))
    assert float(cp.max(cp.abs(c.astype(cp.float64) - ref))) <= 200 * 2.0**-10


@pytest.mark.parametrize("name", NAME)
def test_runs_on_the_current_stream(name):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    a, b = _operand(512, 512, 512, "bfloat16", 9), _operand(512, 512, 512, "bfloat16", 10)
    expect = tma_matmul(a, b, dtype="bfloat16")
    cp.cuda.Device().synchronize()  # a non-blocking stream does not wait for the default one
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        c = tma_matmul(a, b, dtype="bfloat16")
    s.synchronize()
    assert bool((c == expect).all())  # same kernel, same order of adds: bit-identical


@pytest.mark.parametrize("name", NAME)
def test_c_off_16_bytes_is_stored_row_by_row(name):
    """A C that TMA cannot store goes out of the shared-memory C tile row by row: the same bits as
    the TMA-store epilogue, nothing written before C."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma import tma_matmul

    M, N, K = 300, 264, 64
    a, b = _operand(M, K, K, "float16", 11), _operand(K, N, N, "float16", 12)
    expect = tma_matmul(a, b, dtype="float16")  # contiguous C: the TMA-store epilogue
    base = _poisoned(1, M * N + 1, "float16", 16).reshape(-1)
    c = base[1:].reshape(M, N)  # 2 bytes past a 16-byte boundary
    assert ENTRY.default.c_map("float16", M, N, c.data.ptr, N) is None
    tma_matmul(a, b, c, dtype="float16")
    assert bool((c == expect).all()) and int(base[0]) == NAN_BITS["float16"]
