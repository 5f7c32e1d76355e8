"""Interop on the GPU: torch CUDA tensors (__cuda_array_interface__), DLPack objects, numpy, torch
tensors as `out`, CuPy and torch streams, and per-device compilation (marked `gpu`)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import api
from tiled_matmul import compile as tmc
from tiled_matmul.operands import describe

from .conftest import GENERAL, poisoned, random_pair

pytestmark = pytest.mark.gpu

STRATEGIES = GENERAL


def _dtype(name):
    """The dtype a strategy-wide test runs `name` in: float32, or float64 for float64-only ones."""
    return tm.STRATEGIES[name].default_dtype.numpy


def _torch():
    return pytest.importorskip("torch", reason="torch is not installed")


def _torch_cuda():
    torch = _torch()
    if not torch.cuda.is_available():
        pytest.skip("torch cannot see a CUDA device")
    return torch


def _cp():
    import cupy as cp

    return cp


class DLPackOnly:
    """Hides everything but DLPack (as a JAX array would look to us)."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, **kwargs):
        return self.x.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def _check(c, a, b):
    cp = _cp()
    report = tm.check(cp.asarray(c), cp.asarray(a), cp.asarray(b))
    assert report.passed, report
    return report


# -- torch CUDA tensors (__cuda_array_interface__) -------------------------------------------------
@pytest.mark.parametrize("name", STRATEGIES)
def test_torch_tensors_in_torch_out(name):
    torch = _torch_cuda()
    dt = getattr(torch, _dtype(name).name)
    a = torch.rand(67, 45, device="cuda", dtype=dt) * 2 - 1
    b = torch.rand(45, 93, device="cuda", dtype=dt) * 2 - 1
    c = tm.matmul(a, b, strategy=name)
    cp = _cp()
    assert isinstance(c, cp.ndarray) and c.shape == (67, 93) and c.device.id == a.device.index
    _check(c, a, b)
    out = torch.full((67, 93), float("nan"), device="cuda", dtype=dt)
    assert tm.matmul(a, b, strategy=name, out=out) is out  # the caller's tensor comes back
    _check(out, a, b)
    # 16-bit results (mma_half) may differ from torch's by the last bit where the float32 sums
    # round differently: the tolerance is one ulp of float16 (2^-10 relative)
    tol = 1e-4 if dt in (torch.float32, torch.float64) else 2e-3
    torch.testing.assert_close(out, a @ b, rtol=tol, atol=tol)


def test_torch_inputs_are_zero_copy():
    torch = _torch_cuda()
    a = torch.rand(8, 16, device="cuda")
    staged = api._to_device(describe(a, "a"))
    assert staged.data.ptr == a.data_ptr()
    out = torch.empty(8, 8, device="cuda")
    assert api._out_view(describe(out, "out")).data.ptr == out.data_ptr()


def test_torch_float64_noncontiguous_and_mixed_with_cupy():
    torch = _torch_cuda()
    cp = _cp()
    a = (torch.rand(90, 70, device="cuda", dtype=torch.float64) * 2 - 1).t()  # 70 x 90, transposed view
    b = cp.asarray(np.random.default_rng().uniform(-1, 1, (90, 33)))
    out = torch.full((70, 33), float("nan"), device="cuda", dtype=torch.float64)
    assert tm.matmul(a, b, out=out) is out
    _check(out, a, b)
    c = tm.matmul(a, b)  # mixed torch + cupy: a cupy result
    assert isinstance(c, cp.ndarray) and c.dtype == cp.float64
    _check(c, a, b)


def test_cupy_result_wraps_zero_copy_into_torch():
    torch = _torch_cuda()
    a = torch.rand(20, 30, device="cuda")
    b = torch.rand(30, 10, device="cuda")
    c = tm.matmul(a, b)
    t = torch.as_tensor(c, device="cuda")
    assert t.data_ptr() == c.data.ptr
    torch.testing.assert_close(t, a @ b, rtol=1e-4, atol=1e-4)


def test_torch_out_aliasing_an_input_is_rejected_untouched():
    torch = _torch_cuda()
    a = torch.rand(16, 16, device="cuda")
    before = a.clone()
    with pytest.raises(ValueError, match="out overlaps input a"):
        tm.matmul(a, torch.rand(16, 16, device="cuda"), out=a)
    with pytest.raises(ValueError, match="out overlaps input b"):
        tm.matmul(torch.rand(16, 16, device="cuda"), a[:, :], out=a)
    assert torch.equal(a, before)


def test_torch_out_requiring_grad_is_rejected():
    torch = _torch_cuda()
    a, b = torch.rand(4, 3, device="cuda"), torch.rand(3, 5, device="cuda")
    with pytest.raises(ValueError, match="out requires grad"):
        tm.matmul(a, b, out=torch.zeros(4, 5, device="cuda", requires_grad=True))
    with pytest.raises(ValueError, match=r"a requires grad.*pass a\.detach\(\)"):
        tm.matmul(torch.rand(4, 3, device="cuda", requires_grad=True), b)
    with pytest.raises(ValueError, match="b requires grad"):
        tm.matmul(a.cpu(), torch.rand(3, 5, requires_grad=True))


def test_torch_wrong_dtypes_name_the_dtype():
    torch = _torch_cuda()
    with pytest.raises(TypeError, match="a has dtype int64"):
        tm.matmul(torch.ones(2, 3, device="cuda", dtype=torch.int64), torch.ones(3, 2, device="cuda", dtype=torch.int64))
    with pytest.raises(TypeError, match="b has dtype complex64"):
        tm.matmul(torch.ones(2, 3, device="cuda"), torch.ones(3, 2, device="cuda", dtype=torch.complex64))


# -- DLPack ------------------------------------------------------------------------------------------
def test_cuda_dlpack_objects_in_and_as_out(rng):
    cp = _cp()
    a, b = random_pair(61, 47, 35, np.float32, rng)
    c = tm.matmul(DLPackOnly(a), DLPackOnly(b))
    assert isinstance(c, cp.ndarray)
    _check(c, a, b)
    out_arr = poisoned((61, 47), np.float32)
    out = DLPackOnly(out_arr)
    assert tm.matmul(DLPackOnly(a), b, out=out) is out  # the caller's object, written in place
    _check(out_arr, a, b)


def test_torch_through_dlpack_only():
    torch = _torch_cuda()
    a, b = torch.rand(33, 65, device="cuda"), torch.rand(65, 17, device="cuda")
    out_t = torch.full((33, 17), float("nan"), device="cuda")
    out = DLPackOnly(out_t)
    assert tm.matmul(DLPackOnly(a), DLPackOnly(b), out=out) is out
    torch.testing.assert_close(out_t, a @ b, rtol=1e-4, atol=1e-4)


def test_host_torch_tensors_give_numpy_and_fill_torch_out():
    torch = _torch()
    a = torch.rand(40, 30, dtype=torch.float64) * 2 - 1
    b = torch.rand(30, 20, dtype=torch.float64) * 2 - 1
    c = tm.matmul(a, b)  # CPU tensors are host DLPack objects: numpy out
    assert isinstance(c, np.ndarray) and c.dtype == np.float64
    np.testing.assert_allclose(c, (a @ b).numpy(), rtol=1e-10, atol=1e-12)
    out = torch.full((40, 20), float("nan"), dtype=torch.float64)
    if not np.from_dlpack(out).flags.writeable:  # older numpy marks every DLPack import read-only
        with pytest.raises(ValueError, match="out is read-only"):
            tm.matmul(a, b, out=out)
        return
    assert tm.matmul(a, b, out=out) is out
    np.testing.assert_allclose(out.numpy(), (a @ b).numpy(), rtol=1e-10, atol=1e-12)


def test_numpy_in_numpy_out_with_numpy_out(rng):
    a = rng.uniform(-1, 1, (129, 65)).astype(np.float32)
    b = rng.uniform(-1, 1, (65, 257)).astype(np.float32)
    c = tm.matmul(a, b)
    assert type(c) is np.ndarray
    out = np.full((129, 257), np.nan, np.float32)
    assert tm.matmul(np.asfortranarray(a), b[:, :], out=out) is out
    _check(out, a, b)
    np.testing.assert_array_equal(c, out)


def test_numba_device_arrays():
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba is not installed")
    if not numba_cuda.is_available():
        pytest.skip("numba cannot see a CUDA device")
    a = numba_cuda.to_device(np.random.default_rng().uniform(-1, 1, (50, 40)).astype(np.float32))
    b = numba_cuda.to_device(np.random.default_rng().uniform(-1, 1, (40, 30)).astype(np.float32))
    out = numba_cuda.device_array((50, 30), np.float32)
    assert tm.matmul(a, b, out=out) is out
    _check(out, a, b)


# -- streams -----------------------------------------------------------------------------------------
SPIN_SRC = r"""
extern "C" __global__ void tm_test_spin(long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}
"""
SPIN_CYCLES = 300_000_000  # ~0.15 s: long enough that a launch on any other stream runs first


def _spin(stream):
    cp = _cp()
    kern = cp.RawKernel(SPIN_SRC, "tm_test_spin")
    kern((1,), (1,), (np.int64(SPIN_CYCLES),), stream=stream)


@pytest.mark.parametrize("name", STRATEGIES)
def test_launches_on_current_cupy_stream(name, rng):
    """Inputs are filled on a non-blocking stream behind a long spin. Launched anywhere but that
    stream, the kernel would read the zeros still there; and the call must not synchronise."""
    cp = _cp()
    M, N, K = 130, 70, 67
    src_a, src_b = random_pair(M, N, K, _dtype(name), rng)
    a, b = cp.zeros_like(src_a), cp.zeros_like(src_b)
    tm.matmul(a, b, strategy=name)  # compile outside the timed region
    cp.cuda.Device().synchronize()
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        _spin(stream)
        a[...] = src_a
        b[...] = src_b
        c = tm.matmul(a, b, strategy=name)
        out = poisoned((M, N), _dtype(name))
        tm.matmul(a, b, strategy=name, out=out)
        assert not stream.done, "matmul synchronised the stream"
    stream.synchronize()
    _check(c, src_a, src_b)
    _check(out, src_a, src_b)


def test_numpy_inputs_on_non_default_stream(rng):
    cp = _cp()
    a = rng.uniform(-1, 1, (100, 80)).astype(np.float32)
    b = rng.uniform(-1, 1, (80, 60)).astype(np.float32)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        _spin(stream)
        c = tm.matmul(a, b)  # returns only once the result is on the host
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(c - ref) / np.linalg.norm(ref) < tm.tolerance(np.float32, 80)


def cupy_stream_of(torch_stream):
    """The torch stream as a CuPy stream: Stream.from_external (CuPy >= 14, through the
    __cuda_stream__ protocol) where it works, else the older ExternalStream(ptr, device)."""
    import warnings

    cp = _cp()
    from_external = getattr(cp.cuda.Stream, "from_external", None)
    if from_external is not None and hasattr(torch_stream, "__cuda_stream__"):
        try:
            return from_external(torch_stream)
        except Exception:  # pragma: no cover - fall back below
            pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return cp.cuda.ExternalStream(torch_stream.cuda_stream, torch_stream.device.index)


@pytest.mark.parametrize("name", STRATEGIES)
def test_torch_stream_wrapped_for_cupy(name):
    torch = _torch_cuda()
    cp = _cp()
    M, N, K = 129, 65, 257
    dt = getattr(torch, _dtype(name).name)
    src_a = torch.rand(M, K, device="cuda", dtype=dt) * 2 - 1
    src_b = torch.rand(K, N, device="cuda", dtype=dt) * 2 - 1
    a, b = torch.zeros_like(src_a), torch.zeros_like(src_b)
    out = torch.full((M, N), float("nan"), device="cuda", dtype=dt)
    tm.matmul(a, b, strategy=name)  # compile first
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(SPIN_CYCLES)
        a.copy_(src_a)
        b.copy_(src_b)
        wrapped = cupy_stream_of(s)
        assert wrapped.ptr == s.cuda_stream
        with wrapped:
            assert cp.cuda.get_current_stream().ptr == s.cuda_stream
            assert tm.matmul(a, b, strategy=name, out=out) is out
    s.synchronize()
    # two correctly rounded 16-bit results may differ by one ulp (2^-10 relative, float16)
    tol = 1e-4 if dt in (torch.float32, torch.float64) else 2.0 ** -7
    torch.testing.assert_close(out, src_a @ src_b, rtol=tol, atol=tol)


# -- devices -----------------------------------------------------------------------------------------
def test_compiled_per_device_and_run_on_inputs_device(rng):
    cp = _cp()
    dev = cp.cuda.Device().id
    cfg = tm.STRATEGIES["smem_tiled"].default
    a, b = random_pair(40, 50, 60, np.float32, rng)
    c = tm.matmul(a, b, strategy="smem_tiled")
    assert c.device.id == a.device.id == dev
    key = tmc.cache_key("smem_tiled", cfg, "float32", dev)
    assert key in tmc._cache and tmc._cache[key].device == dev


def test_multi_gpu_inputs_run_on_their_device(rng):
    cp = _cp()
    n = cp.cuda.runtime.getDeviceCount()
    if n < 2:
        pytest.skip(f"needs 2 CUDA devices to run on a non-current device; this machine has {n}")
    for dev in range(n):
        with cp.cuda.Device(dev):
            a, b = random_pair(70, 90, 50, np.float32, rng)
        with cp.cuda.Device((dev + 1) % n):  # a different current device
            c = tm.matmul(a, b, strategy="rect_tiled")
        assert c.device.id == dev
        with cp.cuda.Device(dev):
            assert tm.check(c, a, b).passed
        key = tmc.cache_key("rect_tiled", tm.STRATEGIES["rect_tiled"].default, "float32", dev)
        assert tmc.compile_counts[key] == 1
    with cp.cuda.Device(0):
        a0 = cp.ones((4, 4), cp.float32)
    with cp.cuda.Device(1):
        b1 = cp.ones((4, 4), cp.float32)
    with pytest.raises(ValueError, match="a is on device 0 and b on device 1"):
        tm.matmul(a0, b1)
