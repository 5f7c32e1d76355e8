"""numpy.matmul semantics and gemm's arguments, resolved and checked from metadata (CPU only)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.semantics import check_call, resolve


def f32(*shape):
    return np.zeros(shape, np.float32)


def _numpy_shape_and_dtype(sa, sb, da, db):
    out = np.matmul(np.zeros(sa, da), np.zeros(sb, db))
    return np.shape(out), np.result_type(out)


SHAPES = [
    ((3,), (3,)),              # vector . vector -> 0-d
    ((3,), (3, 4)),            # vector . matrix
    ((2, 3), (3,)),            # matrix . vector
    ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)),       # batch . matrix (broadcast weight)
    ((2, 3), (5, 3, 4)),
    ((2, 1, 3, 4), (5, 4, 6)),  # numpy's broadcast example
    ((7, 3), (2, 3, 5)),
    ((0, 2, 3), (3, 4)),       # zero-size batch
    ((2, 0, 3), (3, 4)),
    ((2, 3, 0), (2, 0, 4)),    # K = 0
    ((1, 1, 2, 3), (3,)),
    ((3,), (4, 3, 2)),
]


@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("da,db", [("float32", "float32"), ("float32", "float64"), ("float16", "float32"),
                                   ("float64", "float16")])
def test_resolve_matches_numpy(sa, sb, da, db):
    p = resolve(sa, sb, np.dtype(da), np.dtype(db))
    shape, dtype = _numpy_shape_and_dtype(sa, sb, da, db)
    assert p.out_shape == shape
    assert p.dtype.numpy == dtype


@pytest.mark.parametrize("sa,sb,needle", [
    ((2, 3), (4, 5), "inner dimensions differ"),
    ((3,), (4,), "inner dimensions differ"),
    ((2, 2, 3), (3, 3, 4), "batch dimensions do not broadcast"),
    ((), (3,), "a is 0-d"),
    ((3,), (), "b is 0-d"),
])
def test_resolve_shape_errors(sa, sb, needle):
    with pytest.raises(ValueError, match=needle):
        resolve(sa, sb, np.float32, np.float32)
    with pytest.raises(ValueError, match=needle):
        tm.matmul(np.zeros(sa, np.float32), np.zeros(sb, np.float32))


@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "complex64", "uint8"])
def test_non_float_dtypes_name_what_is_supported(dtype):
    with pytest.raises(TypeError, match=f"a has dtype {dtype}; supported dtypes are float32, float64"):
        tm.matmul(np.zeros((2, 3), dtype), f32(3, 2))
    with pytest.raises(TypeError, match=f"b has dtype {dtype}"):
        tm.matmul(f32(2, 3), np.zeros((3, 2), dtype))


@pytest.mark.parametrize("out,exc,needle", [
    (np.zeros((5, 2, 4), np.float32), ValueError, r"out has shape \(5, 2, 4\); a @ b needs shape \(5, 2, 3\)"),
    (np.zeros((5, 2, 3), np.float64), TypeError, "out has dtype float64; the result dtype is float32"),
    (np.zeros((2, 3), np.float32), ValueError, "needs shape"),
])
def test_out_rules(out, exc, needle):
    a, b = f32(5, 2, 4), f32(4, 3)
    before = out.copy()
    with pytest.raises(exc, match=needle):
        tm.matmul(a, b, out=out)
    assert np.array_equal(out, before)


def test_out_aliasing_an_input_is_rejected():
    buf = np.zeros(200, np.float32)
    a = buf[:40].reshape(5, 2, 4)
    with pytest.raises(ValueError, match="out overlaps input a"):
        check_call(a, f32(4, 3), buf[10:40].reshape(5, 2, 3))


def test_vector_out_shape():
    with pytest.raises(ValueError, match=r"needs shape \(\)"):
        tm.matmul(f32(3), f32(3), out=np.zeros((1,), np.float32))


# -- gemm arguments ---------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,exc,needle", [
    (dict(beta=1.0), ValueError, "beta = 1.0 reads c, and no c was given"),
    (dict(alpha="2"), TypeError, "alpha must be a real number; got str"),
    (dict(alpha=float("nan")), ValueError, "alpha must be finite"),
    (dict(bias=np.ones(3, np.float32)), ValueError, r"bias has shape \(3,\); with bias_axis=1 it must be 1-D of length N = 4"),
    (dict(bias=np.ones(2, np.float32), bias_axis=0), None, None),
    (dict(bias=np.ones(4, np.float32), bias_axis=2), ValueError, "bias_axis must be 0"),
    (dict(bias=np.ones(4, np.int32)), TypeError, "bias has dtype int32"),
    (dict(activation="tanh"), ValueError, "activation 'tanh' is not one of relu, gelu, gelu_tanh, silu, sigmoid"),
    (dict(c=np.zeros((3, 4), np.float32), beta=1.0), ValueError, r"c has shape \(3, 4\); it must broadcast"),
    (dict(epilogue="acc + x[j]"), ValueError, "unknown name 'x'"),
    (dict(scale=np.ones(4, np.float32)), TypeError, "unexpected keyword argument"),
    (dict(epilogue="acc * s[j]", s=np.ones(4, np.float16)), TypeError, "s has dtype float16; extra arrays may be"),
    (dict(epilogue="acc * int[j]", **{"int": np.ones(4, np.float32)}), ValueError, "extra array name 'int' is reserved"),
    (dict(epilogue="acc; x"), ValueError, "is not allowed"),
])
def test_gemm_argument_errors(kwargs, exc, needle):
    a, b = f32(2, 3), f32(3, 4)
    if exc is None:  # valid: reaches the launch, which needs a GPU
        if tm.gpu_available():
            pytest.skip("valid call: covered by the GPU tests")
        with pytest.raises(RuntimeError, match="needs a CUDA device"):
            tm.gemm(a, b, **kwargs)
        return
    with pytest.raises(exc, match=needle):
        tm.gemm(a, b, **kwargs)


def test_gemm_out_may_be_c_but_nothing_else_overlaps():
    a, b = f32(2, 3), f32(3, 4)
    c = np.zeros((2, 4), np.float32)
    if not tm.gpu_available():
        with pytest.raises(RuntimeError, match="needs a CUDA device"):
            tm.gemm(a, b, c, beta=1.0, out=c)  # allowed: reaches the launch
    buf = np.zeros(16, np.float32)
    with pytest.raises(ValueError, match="out overlaps input c"):
        tm.gemm(a, b, buf[:8].reshape(2, 4), beta=1.0, out=buf[4:12].reshape(2, 4))
    bias = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="out overlaps input bias"):
        tm.gemm(a, b, bias=bias, out=np.lib.stride_tricks.as_strided(bias, (2, 4), (0, 4)))


def test_gemm_tile_params_and_arrays_are_told_apart():
    with pytest.raises(ValueError, match="smem_tiled config"):
        tm.gemm(f32(2, 3), f32(3, 4), strategy="smem_tiled", tile=64)
