"""tiled_matmul.dask on GPUs: correctness against float64 on ragged chunkings, NumPy and CuPy
blocks, and the same bits from the threaded scheduler and from clusters of 1, 2 (and 4) GPU workers.
Run with `python3 -m pytest -q -m gpu tests/test_dask*.py` (scripts/gpu_dask.sh)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask.array", reason="tiled_matmul.dask needs the [dask] extra: pip install -e '.[dask]'")

import dask.array as da

import tiled_matmul as tm
import tiled_matmul.dask as tmd

from .conftest import HAS_GPU

pytestmark = pytest.mark.gpu


def n_gpus() -> int:
    if not HAS_GPU:
        return 0
    import cupy

    return cupy.cuda.runtime.getDeviceCount()


def host_pair(M, N, K, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (M, K)).astype(dtype), rng.uniform(-1, 1, (K, N)).astype(dtype)


def rel_error(c, a, b) -> float:
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return float(np.linalg.norm(np.asarray(c, np.float64) - ref) / np.linalg.norm(ref))


RAGGED = [  # (M, N, K), (row, col, inner) chunks: the last block of every dimension partial
    ((1000, 777, 1500), (300, 256, 400)),
    ((257, 1030, 2049), (128, 512, 1024)),
    ((64, 64, 5000), (64, 64, 999)),  # long K: 6 steps per chain
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,chunks", RAGGED)
def test_cupy_blocks_threaded_match_float64(dtype, shape, chunks):
    import cupy

    (M, N, K), (rm, cn, ik) = shape, chunks
    a, b = host_pair(M, N, K, dtype)
    A = da.from_array(cupy.asarray(a), chunks=(rm, ik))
    B = da.from_array(cupy.asarray(b), chunks=(ik, cn))
    C = tmd.matmul(A, B)
    assert C.chunks == (A.chunks[0], B.chunks[1])
    threads = C.compute(scheduler="threads", num_workers=4)
    assert isinstance(threads, cupy.ndarray) and threads.dtype == np.dtype(dtype)
    err = rel_error(threads.get(), a, b)
    assert err <= tm.tolerance(dtype, K), f"relative error {err:.3g} over {tm.tolerance(dtype, K):.3g}"
    sync = C.compute(scheduler="synchronous")
    assert cupy.array_equal(sync, threads), "threaded and synchronous schedulers gave different bits"


@pytest.mark.parametrize("shape,chunks", RAGGED[:2])
def test_numpy_blocks_come_back_as_numpy(shape, chunks):
    (M, N, K), (rm, cn, ik) = shape, chunks
    a, b = host_pair(M, N, K, "float32", seed=1)
    A, B = da.from_array(a, chunks=(rm, ik)), da.from_array(b, chunks=(ik, cn))
    C = tmd.matmul(A, B)
    assert C._meta.__class__ is np.ndarray
    c = C.compute(scheduler="threads")
    assert type(c) is np.ndarray and type(C.blocks[0, 0].compute()) is np.ndarray
    assert rel_error(c, a, b) <= tm.tolerance("float32", K)


def test_mixed_blocks_stay_on_the_gpu_and_options_are_used():
    import cupy

    a, b = host_pair(300, 200, 500, "float32", seed=2)
    A, B = da.from_array(a, chunks=128), da.from_array(cupy.asarray(b), chunks=128)
    c = tmd.matmul(A, B, strategy="smem_tiled", tile=16).compute(scheduler="threads")
    assert isinstance(c, cupy.ndarray)
    assert rel_error(c.get(), a, b) <= tm.tolerance("float32", 500)
    # the same per-block kernel by hand, summed in the same order, gives the same bits
    blk = tm.matmul(a[:128, :128], b[:128, :128], "smem_tiled", tile=16)
    for k in range(1, 4):
        blk += tm.matmul(np.ascontiguousarray(a[:128, 128 * k:128 * (k + 1)]), b[128 * k:128 * (k + 1), :128],
                         "smem_tiled", tile=16)
    np.testing.assert_array_equal(c[:128, :128].get(), blk)


def _on_cluster(workers: int, A, B, use_dask_cuda=None):
    distributed = pytest.importorskip("distributed", reason="needs distributed (the [dask] extra)")
    with tmd.local_gpu_cluster(workers, threads_per_worker=2, use_dask_cuda=use_dask_cuda) as cluster, \
            distributed.Client(cluster) as client:
        # dask-cuda lets each worker see every GPU with its own first (CUDA_VISIBLE_DEVICES "0,1",
        # "1,0"); the fallback cluster shows each worker its GPU alone. Either way, device 0 of
        # each worker is a different GPU.
        devices = client.run(lambda: __import__("cupy").cuda.Device(0).pci_bus_id)
        assert len(set(devices.values())) == workers, f"workers share a GPU: {devices}"
        host = tmd.matmul(A, B).compute()
        # CuPy blocks made on the workers; the result's blocks stay there until gathered
        import cupy

        dA, dB = A.map_blocks(cupy.asarray), B.map_blocks(cupy.asarray)
        dev = tmd.matmul(dA, dB).map_blocks(cupy.asnumpy).compute()
    return host, dev


@pytest.mark.skipif(n_gpus() < 2, reason=f"needs 2 GPUs, this machine has {n_gpus()}")
def test_same_bits_on_1_2_and_4_gpu_workers():
    a, b = host_pair(3000, 2500, 4100, "float32", seed=4)
    A, B = da.from_array(a, chunks=(1024, 1000)), da.from_array(b, chunks=(1000, 1024))
    threaded = tmd.matmul(A, B).compute(scheduler="threads")
    assert rel_error(threaded, a, b) <= tm.tolerance("float32", 4100)
    for workers in [w for w in (1, 2, 4) if w <= n_gpus()]:
        host, dev = _on_cluster(workers, A, B)
        np.testing.assert_array_equal(host, threaded, err_msg=f"{workers} worker(s), NumPy blocks")
        np.testing.assert_array_equal(dev, threaded, err_msg=f"{workers} worker(s), CuPy blocks")


@pytest.mark.skipif(n_gpus() < 2, reason=f"needs 2 GPUs, this machine has {n_gpus()}")
def test_fallback_cluster_without_dask_cuda():
    a, b = host_pair(1500, 1300, 2100, "float64", seed=5)
    A, B = da.from_array(a, chunks=512), da.from_array(b, chunks=512)
    host, dev = _on_cluster(2, A, B, use_dask_cuda=False)
    np.testing.assert_array_equal(host, dev)
    assert rel_error(host, a, b) <= tm.tolerance("float64", 2100)
