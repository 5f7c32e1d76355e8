"""Every kind of bad input gets a TypeError/ValueError whose message says what is
wrong, before anything is launched or written. Runs on the CPU, with numpy arrays and fakes
(tests/test_inputs.py covers the core cases; these are the ones it does not)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.operands import MAX_DIM, check_operands, describe

ACCEPTED = "must be a cupy.ndarray, a numpy.ndarray, or an object exposing __cuda_array_interface__"


class FakeCAI:
    """Metadata-only device array exposing __cuda_array_interface__ (never dereferenced)."""

    def __init__(self, shape, dtype="float32", device=0, ptr=1 << 20, strides=None, readonly=False,
                 typestr=None, mask=None, requires_grad=None):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr or np.dtype(dtype).str, "data": (ptr, readonly),
            "strides": strides, "version": 3, "mask": mask,
        }
        self.device = SimpleNamespace(id=device)
        if requires_grad is not None:
            self.requires_grad = requires_grad


class RaisingCAI:
    """Like a torch CUDA tensor that requires grad: reading the interface raises RuntimeError."""

    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad")


class HostDLPack:
    """A host array seen only through DLPack (like a CPU torch tensor)."""

    def __init__(self, arr, device_type=1):
        self.arr, self.device_type = arr, device_type

    def __dlpack__(self, **kwargs):
        return self.arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return (self.device_type, 0)


class BrokenDLPack:
    def __dlpack__(self, **kwargs):
        raise BufferError("cannot export: tensor requires grad")

    def __dlpack_device__(self):
        return (1, 0)


def f32(*shape):
    return np.zeros(shape, np.float32)


def raises(exc, needle, a, b, out=None):
    """Assert both check_operands and the public matmul raise `exc` with `needle` in the message."""
    with pytest.raises(exc) as err:
        check_operands(a, b, out)
    assert needle in str(err.value), str(err.value)
    with pytest.raises(exc) as err:
        tm.matmul(a, b, out=out)
    assert needle in str(err.value), str(err.value)
    return str(err.value)


# -- wrong types -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad,tname",
    [([[1.0, 2.0]], "list"), ((1.0, 2.0), "tuple"), (1, "int"), (2.5, "float"), (True, "bool"),
     (None, "NoneType"), ("ab", "str"), ({"a": 1}, "dict"), (np.float64(1.0), "float64"),
     (complex(1, 2), "complex")],
)
@pytest.mark.parametrize("which", ["a", "b"])
def test_wrong_types(bad, tname, which):
    a, b = (bad, f32(2, 2)) if which == "a" else (f32(2, 2), bad)
    msg = raises(TypeError, f"{which} {ACCEPTED}", a, b)
    assert msg.endswith(f"got {tname}")


@pytest.mark.parametrize("bad,tname", [(0.0, "float"), ("out", "str"), ((0.0,), "tuple"), (7, "int")])
def test_wrong_type_out(bad, tname):
    msg = raises(TypeError, f"out {ACCEPTED}", f32(2, 3), f32(3, 4), bad)
    assert msg.endswith(f"got {tname}")


# -- dimensionality: numpy.matmul's rules (tests/test_semantics.py has the valid shapes) ------
def test_0d_operands():
    with pytest.raises(ValueError, match="b is 0-d"):
        tm.matmul(f32(2, 3), np.zeros((), np.float32))
    with pytest.raises(ValueError, match="a is 0-d"):
        tm.matmul(np.zeros((), np.float32), f32(2, 3))


@pytest.mark.parametrize("shape", [(), (8,), (2, 2, 2), (1, 8)])
def test_out_not_2d_or_wrong_shape(shape):
    raises(ValueError, f"out has shape {shape}; a @ b needs shape (2, 4)", f32(2, 3), f32(3, 4),
           np.zeros(shape, np.float32))


# -- dtypes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "int8", "int16", "int32", "int64",
                                   "uint8", "uint64", "bool"])
def test_unsupported_dtypes(dtype):
    bad = np.zeros((2, 3), dtype)
    raises(TypeError, f"a has dtype {dtype}; supported dtypes are float32, float64", bad, np.zeros((3, 2), dtype))
    raises(TypeError, f"b has dtype {dtype}; supported dtypes are float32, float64", f32(2, 3), np.zeros((3, 2), dtype))


@pytest.mark.parametrize("dtype", ["complex64", "int32", "float64"])
def test_out_dtype(dtype):
    raises(TypeError, f"out has dtype {dtype};", f32(2, 3), f32(3, 2), np.zeros((2, 2), dtype))


def test_device_complex_and_integer_dtypes():
    raises(TypeError, "a has dtype complex64", FakeCAI((2, 3), "complex64"), FakeCAI((3, 2), ptr=1 << 22))
    raises(TypeError, "b has dtype int64", FakeCAI((2, 3)), FakeCAI((3, 2), "int64", ptr=1 << 22))


def test_cai_unknown_typestr():
    raises(TypeError, "a has typestr '<x9'; supported dtypes are float32, float64",
           FakeCAI((2, 3), typestr="<x9"), FakeCAI((3, 2), ptr=1 << 22))


# -- read-only and otherwise unwritable out ---------------------------------------------------
def test_read_only_out_numpy_view():
    base = np.full((2, 2), 7.0, np.float32)
    base.flags.writeable = False
    ro = base[:]  # a view of a read-only array is read-only too
    raises(ValueError, "out is read-only; pass a writable array", f32(2, 3), f32(3, 2), ro)
    assert (base == 7.0).all()


def test_read_only_out_broadcast():
    # np.broadcast_to gives a read-only view (and 0 strides); shape/contiguity is checked first
    ro = np.broadcast_to(np.float32(1.0), (1, 1))
    raises(ValueError, "out is read-only", f32(1, 3), f32(3, 1), ro)


def test_read_only_out_device():
    raises(ValueError, "out is read-only; pass a writable array", FakeCAI((2, 3)), FakeCAI((3, 2), ptr=1 << 22),
           FakeCAI((2, 2), ptr=1 << 24, readonly=True))


def test_read_only_out_host_dlpack():
    ro = np.zeros((2, 2), np.float32)
    ro.flags.writeable = False
    raises(ValueError, "out is read-only", f32(2, 3), f32(3, 2), HostDLPack(ro))


def test_tensors_requiring_grad_are_rejected():
    raises(ValueError, "out requires grad, and tiled_matmul does not track gradients", FakeCAI((2, 3)),
           FakeCAI((3, 2), ptr=1 << 22), FakeCAI((2, 2), ptr=1 << 24, requires_grad=True))
    raises(ValueError, "pass a.detach()", FakeCAI((2, 3), requires_grad=True), FakeCAI((3, 2), ptr=1 << 22))
    # requires_grad=False is fine
    check_operands(FakeCAI((2, 3)), FakeCAI((3, 2), ptr=1 << 22), FakeCAI((2, 2), ptr=1 << 24, requires_grad=False))


# -- aliasing ----------------------------------------------------------------------------------
def test_out_aliasing_through_a_view_is_rejected():
    buf = np.zeros((4, 4), np.float32)
    raises(ValueError, "out overlaps input a", buf, f32(4, 4), buf[:, :])
    # a transposed (non-contiguous) input whose memory out reuses
    raises(ValueError, "out overlaps input b", f32(4, 4), buf.T, buf)


def test_out_aliasing_through_dlpack_is_rejected():
    buf = np.zeros((4, 4), np.float32)
    raises(ValueError, "out overlaps input a", buf, f32(4, 4), HostDLPack(buf))


def test_inputs_may_alias_each_other():
    a = f32(3, 3)
    da, db, _ = check_operands(a, a)
    assert da.ptr == db.ptr


# -- devices, sides and sizes --------------------------------------------------------------------
def test_device_inputs_with_host_out():
    raises(TypeError, "out must be a device array like the inputs; got numpy",
           FakeCAI((2, 3)), FakeCAI((3, 2), ptr=1 << 22), f32(2, 2))


def test_host_dlpack_mixed_with_device_array():
    raises(TypeError, "must both be host (numpy) arrays or both device arrays; got dlpack and cai",
           HostDLPack(f32(2, 3)), FakeCAI((3, 2)))


@pytest.mark.parametrize("shape_a,shape_b,dim", [((1, 2**31), (2**31, 1), "K = 2147483648"),
                                                 ((2**31, 1), (1, 1), "M = 2147483648"),
                                                 ((1, 1), (1, 2**32), "N = 4294967296")])
def test_dimension_over_int32(shape_a, shape_b, dim):
    raises(ValueError, f"{dim} is over {MAX_DIM} (2**31 - 1)", FakeCAI(shape_a), FakeCAI(shape_b, ptr=1 << 40))


def test_grid_y_limit():
    # naive's default block is 16 rows tall: 65535 * 16 + 1 rows need 65536 blocks along y
    M = 65535 * 16 + 1
    with pytest.raises(ValueError, match=r"M=1048561 needs 65536 blocks along grid y, over the device limit 65535"):
        tm.matmul(FakeCAI((M, 1)), FakeCAI((1, 1), ptr=1 << 40), strategy="naive")


# -- interface objects that cannot be read -------------------------------------------------------
def test_cai_getter_raising():
    raises(TypeError, "a: reading __cuda_array_interface__ of RaisingCAI failed (Can't get", RaisingCAI(), f32(2, 2))


def test_cai_mask():
    raises(TypeError, "a is a masked array", FakeCAI((2, 3), mask=object()), FakeCAI((3, 2), ptr=1 << 22))


def test_dlpack_export_failing():
    raises(TypeError, "b: could not import BrokenDLPack through DLPack (cannot export", f32(2, 2), BrokenDLPack())


def test_dlpack_unsupported_device():
    raises(TypeError, "a is a HostDLPack on a ROCm device (DLPack)", HostDLPack(f32(2, 3), device_type=10), f32(3, 2))


def test_host_dlpack_is_described_zero_copy():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    op = describe(HostDLPack(x), "a")
    assert op.kind == "dlpack" and op.on_host and op.shape == (2, 3)
    assert op.ptr == x.__array_interface__["data"][0]
    assert np.shares_memory(op.array, x)


def test_host_dlpack_dtype_and_shape_errors():
    raises(TypeError, "a has dtype int32", HostDLPack(np.zeros((2, 3), np.int32)), f32(3, 2))
    raises(ValueError, "inner dimensions differ: a is (2, 3) and b is (4, 2)", HostDLPack(f32(2, 3)), f32(4, 2))


def test_errors_come_before_the_gpu_check():
    """Without a GPU a bad call says what is wrong with it, not that there is no GPU."""
    with pytest.raises(TypeError, match="got list"):
        tm.matmul([[1.0]], f32(1, 1))
    with pytest.raises(ValueError, match="out is read-only"):
        ro = f32(1, 1)
        ro.flags.writeable = False
        tm.kernel("naive")(f32(1, 1), f32(1, 1), out=ro)
