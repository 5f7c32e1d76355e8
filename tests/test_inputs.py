"""Bad input gets a clear TypeError/ValueError before anything runs (CPU, with numpy and fakes)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.operands import check_operands, describe


class FakeDeviceArray:
    """Shape/dtype-only stand-in for a device array: exposes __cuda_array_interface__ and a device."""

    def __init__(self, shape, dtype="float32", device=0, ptr=1 << 20, strides=None, readonly=False):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": np.dtype(dtype).str, "data": (ptr, readonly),
            "strides": strides, "version": 3,
        }
        self.device = SimpleNamespace(id=device)


def f32(*shape):
    return np.zeros(shape, np.float32)


@pytest.mark.parametrize(
    "a,b,exc,needle",
    [
        ([[1.0]], f32(1, 1), TypeError, "a must be a cupy.ndarray, a numpy.ndarray"),
        (f32(2, 2), 3.0, TypeError, "b must be a cupy.ndarray"),
        (None, f32(2, 2), TypeError, "got NoneType"),
        (np.array(1.0, np.float32), f32(1, 1), ValueError, "got 0-D"),
        (np.float32(1.0), f32(1, 1), TypeError, "got float32"),
        (f32(2, 3), f32(4, 2), ValueError, "inner dimensions differ: a is (2, 3) and b is (4, 2)"),
        (np.zeros((2, 3), np.int32), np.zeros((3, 2), np.int32), TypeError, "a has dtype int32; supported dtypes are float32, float64"),
        (np.zeros((2, 3), np.complex64), f32(3, 2), TypeError, "dtype complex64"),
        (f32(2, 3), FakeDeviceArray((3, 2)), TypeError, "must both be host (numpy) arrays or both device arrays; got numpy and cai"),
        (FakeDeviceArray((2, 3), device=0), FakeDeviceArray((3, 2), device=1, ptr=1 << 30), ValueError,
         "a is on device 0 and b on device 1"),
    ],
)
def test_bad_inputs(a, b, exc, needle):
    with pytest.raises(exc) as err:
        check_operands(a, b)
    assert needle in str(err.value)
    # The public entry point raises the same error (before needing a GPU).
    with pytest.raises(exc):
        tm.matmul(a, b)


def _bad_outs():
    a, b = f32(4, 3), f32(3, 5)
    ro = np.full((4, 5), 7.0, np.float32)
    ro.flags.writeable = False
    shared = np.full(40, 7.0, np.float32)
    a_shared = shared[:12].reshape(4, 3)
    return [
        (a, b, np.full((5, 4), 7.0, np.float32), ValueError, "out has shape (5, 4); a @ b needs shape (4, 5)"),
        (a, b, np.full((4, 5), 7.0, np.float64), TypeError, "out has dtype float64;"),
        (a, b, ro, ValueError, "out is read-only"),
        (a_shared, b, shared[20:40].reshape(4, 5), None, None),  # disjoint: fine (checked below)
        (a_shared, b, shared[8:28].reshape(4, 5), ValueError, "out overlaps input a"),
        (a, b, FakeDeviceArray((4, 5)), TypeError, "out must be a numpy array like the inputs"),
        (a, b, [[0.0] * 5] * 4, TypeError, "out must be a cupy.ndarray"),
    ]


@pytest.mark.parametrize("a,b,out,exc,needle", _bad_outs())
def test_bad_out_is_rejected_and_untouched(a, b, out, exc, needle):
    before = np.array(out, copy=True) if isinstance(out, np.ndarray) else None
    if exc is None:
        check_operands(a, b, out)
        return
    with pytest.raises(exc) as err:
        tm.matmul(a, b, out=out)
    assert needle in str(err.value)
    if before is not None:
        np.testing.assert_array_equal(out, before)


def test_out_aliasing_input_is_rejected():
    a = np.ones((4, 4), np.float32)
    with pytest.raises(ValueError, match="out overlaps input a"):
        check_operands(a, np.ones((4, 4), np.float32), a)
    with pytest.raises(ValueError, match="out overlaps input b"):
        b = np.ones((4, 4), np.float32)
        check_operands(np.ones((4, 4), np.float32), b, b)


def test_device_out_checks_with_fakes():
    a, b = FakeDeviceArray((4, 3), ptr=1 << 20), FakeDeviceArray((3, 5), ptr=1 << 21)
    with pytest.raises(ValueError, match="out is on device 1 but the inputs are on device 0"):
        check_operands(a, b, FakeDeviceArray((4, 5), device=1, ptr=1 << 22))
    with pytest.raises(ValueError, match="read-only"):
        check_operands(a, b, FakeDeviceArray((4, 5), ptr=1 << 22, readonly=True))
    with pytest.raises(ValueError, match="out overlaps input b"):
        check_operands(a, b, FakeDeviceArray((4, 5), ptr=(1 << 21) + 8))
    with pytest.raises(ValueError, match="C-contiguous"):
        check_operands(a, b, FakeDeviceArray((4, 5), ptr=1 << 22, strides=(4, 16)))
    da, db, dout = check_operands(a, b, FakeDeviceArray((4, 5), ptr=1 << 22))
    assert (da.shape, db.shape, dout.shape) == ((4, 3), (3, 5), (4, 5))


def test_invalid_tile_params_raise_before_launch():
    a, b = f32(4, 3), f32(3, 5)
    with pytest.raises(ValueError, match="threads per block"):
        tm.matmul(a, b, strategy="smem_tiled", tile=64)
    with pytest.raises(TypeError, match="has no parameter"):
        tm.matmul(a, b, strategy="smem_tiled", bm=64)


def test_describe_reads_layout_without_touching_data():
    x = np.zeros((6, 8), np.float32)[:, ::2]
    op = describe(x, "a")
    assert op.kind == "numpy" and op.shape == (6, 4) and not op.c_contiguous
    lo, hi = op.byte_range()
    assert hi - lo == (5 * 8 + 3 * 2) * 4 + 4


def test_no_gpu_message(monkeypatch):
    if tm.gpu_available():
        pytest.skip("a GPU is present: the no-GPU path cannot be exercised here")
    with pytest.raises(RuntimeError, match="needs a CUDA device"):
        tm.matmul(f32(2, 3), f32(3, 2))
