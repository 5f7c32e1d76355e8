"""tiled_matmul.dask without a GPU: the graph, its checks, chunking advice and the GPU cluster
helper. Block products run through the real chain code with the kernel call (`tm.matmul`) and the
GPU plumbing swapped for deterministic NumPy stand-ins, so results can be compared bit for bit."""

from __future__ import annotations

import sys
import types
from contextlib import contextmanager

import numpy as np
import pytest

pytest.importorskip("dask.array", reason="tiled_matmul.dask needs the [dask] extra: pip install -e '.[dask]'")

import dask.array as da
from dask.core import get_dependencies

import tiled_matmul as tm
import tiled_matmul.dask as tmd

from .conftest import HAS_GPU


def fake_product(a, b):
    """A float32 block product that never calls BLAS: deterministic, whatever thread runs it."""
    return np.einsum("ik,kj->ij", a, b, optimize=False)


class NumpyBlocks:
    """The GPU plumbing of a chain step, for host arrays: no device, no streams, no copies."""

    @contextmanager
    def running(self, *blocks):
        yield

    @staticmethod
    def to_device(x):
        return x

    @staticmethod
    def to_host(x):
        return x


@pytest.fixture
def fake_kernel(monkeypatch):
    """Swap the kernel call for `fake_product`; returns the list of (strategy, params) per call."""
    calls = []

    def fake_matmul(a, b, strategy="auto", out=None, **params):
        calls.append((strategy, params))
        return fake_product(a, b)

    def fake_gemm(a, b, c=None, *, beta=0.0, out=None, strategy="auto", **params):
        """c * beta + a @ b into out, as tm.gemm(..., beta=1.0, out=c) does in place."""
        assert beta == 1.0 and out is c, "the chain accumulates in place with beta = 1"
        calls.append((strategy, params))
        out += fake_product(a, b)
        return out

    monkeypatch.setattr(tm, "matmul", fake_matmul)
    monkeypatch.setattr(tm, "gemm", fake_gemm)
    monkeypatch.setattr(tmd, "_BLOCKS", NumpyBlocks())
    return calls


def operands(M, N, K, rows, inner, cols, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (M, K)).astype(dtype)
    b = rng.uniform(-1, 1, (K, N)).astype(dtype)
    return a, b, da.from_array(a, chunks=(rows, inner)), da.from_array(b, chunks=(inner, cols))


def fixed_order(a, b, A, B, order=None):
    """What the graph must give: per output block, the fake products summed in place, k = 0.."""
    rows, inner, cols = (np.cumsum((0,) + c) for c in (A.chunks[0], A.chunks[1], B.chunks[1]))
    c = np.empty((a.shape[0], b.shape[1]), a.dtype)
    ks = list(range(len(inner) - 1)) if order is None else order
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            acc = None
            for k in ks:
                p = fake_product(a[rows[i]:rows[i + 1], inner[k]:inner[k + 1]], b[inner[k]:inner[k + 1], cols[j]:cols[j + 1]])
                acc = p if acc is None else acc.__iadd__(p)
            c[rows[i]:rows[i + 1], cols[j]:cols[j + 1]] = acc
    return c


# -- the graph ---------------------------------------------------------------------------------
def test_task_count_and_chains():
    a, b, A, B = operands(5, 4, 7, rows=2, inner=3, cols=3)  # grid nI x nJ x nK = 3 x 2 x 3
    C = tmd.matmul(A, B)
    dsk = dict(C.__dask_graph__())
    steps = [k for k in dsk if k[0] in (C.name, C.name + "-acc")]
    assert len(steps) == 3 * 2 * 3
    assert len(dsk) == 18 + len(A.__dask_graph__()) + len(B.__dask_graph__())
    assert C.chunks == ((2, 2, 1), (3, 1)) and C.numblocks == (3, 2)
    # step (i, j, k) reads A[i,k], B[k,j] and step k-1 of its own chain, nothing else
    for i in range(3):
        for j in range(2):
            for k in range(3):
                key = (C.name, i, j) if k == 2 else (C.name + "-acc", i, j, k)
                want = {(A.name, i, k), (B.name, k, j)} | ({(C.name + "-acc", i, j, k - 1)} if k else set())
                assert get_dependencies(dsk, key) == want, key
    report = tmd.describe_graph(A, B)
    assert report.steps == 18 and report.tasks == len(dsk) and report.grid == (3, 2, 3)
    assert report.bytes_read == 2 * a.nbytes + 3 * b.nbytes  # A read nJ times, B nI times
    assert report.block == (2, 3, 3) and report.flops == 2 * 5 * 4 * 7 and report.host_blocks
    assert report.step_bytes == (2 * 2 * 3 + 2 * 3 + 3 * 3) * 4
    text = str(report)
    assert "3 x 2 x 3" in text and f"{len(dsk)} = 18 chain steps (6 chains of 3)" in text


def test_graph_is_lazy_and_keys_are_deterministic(fake_kernel):
    _, _, A, B = operands(6, 6, 6, 4, 4, 4)
    C1, C2 = tmd.matmul(A, B), tmd.matmul(A, B)
    assert C1.name == C2.name and not fake_kernel  # building the graph runs nothing
    assert tmd.matmul(A, B, strategy="smem_tiled").name != C1.name
    assert tmd.matmul(A, B, name="mine").name == "mine"


@pytest.mark.parametrize("shape,chunks", [
    ((37, 29, 41), (16, 8, 16)),     # every dimension ragged
    ((64, 64, 64), (64, 64, 64)),    # one block
    ((33, 1, 100), (10, 1, 7)),      # a column vector, many inner blocks
    ((1, 50, 9), (1, 11, 2)),
])
def test_fixed_order_under_every_scheduler(fake_kernel, shape, chunks):
    (M, N, K), (rm, cn, ik) = shape, chunks
    a, b, A, B = operands(M, N, K, rm, ik, cn)
    C = tmd.matmul(A, B)
    want = fixed_order(a, b, A, B)
    sync = C.compute(scheduler="synchronous")
    threads = C.compute(scheduler="threads", num_workers=4)
    assert type(sync) is np.ndarray and sync.dtype == np.float32
    np.testing.assert_array_equal(sync, want)
    np.testing.assert_array_equal(threads, want)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(sync - ref) <= tm.tolerance(np.float32, K) * np.linalg.norm(ref)
    assert len(fake_kernel) == C.numblocks[0] * C.numblocks[1] * A.numblocks[1] * 2


def test_the_order_is_what_makes_the_bits(fake_kernel):
    """The check above can fail: summing the same blocks in another order changes bits."""
    a, b, A, B = operands(64, 64, 4096, 64, 256, 64, seed=3)
    got = tmd.matmul(A, B).compute(scheduler="threads")
    assert not np.array_equal(got, fixed_order(a, b, A, B, order=list(range(A.numblocks[1]))[::-1]))
    np.testing.assert_array_equal(got, fixed_order(a, b, A, B))


def test_distributed_in_process_workers_give_the_same_bits(fake_kernel):
    distributed = pytest.importorskip("distributed", reason="needs distributed (the [dask] extra)")
    a, b, A, B = operands(70, 50, 90, 32, 16, 24, seed=5)
    C = tmd.matmul(A, B)
    results = []
    for n in (1, 2):
        with distributed.LocalCluster(n_workers=n, threads_per_worker=2, processes=False,
                                      dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
            results.append(client.compute(C).result())
    np.testing.assert_array_equal(results[0], fixed_order(a, b, A, B))
    np.testing.assert_array_equal(results[1], results[0])


def test_options_reach_the_kernel_call(fake_kernel):
    _, _, A, B = operands(8, 8, 8, 4, 4, 4)
    tmd.matmul(A, B, strategy="smem_tiled", tile=16).compute(scheduler="synchronous")
    assert set(map(str, fake_kernel)) == {str(("smem_tiled", {"tile": 16}))}
    fake_kernel.clear()
    tmd.matmul(A, B, precision="fast").compute(scheduler="synchronous")
    assert fake_kernel and all(call == ("auto", {"precision": "fast"}) for call in fake_kernel)


# -- input errors ---------------------------------------------------------------------------------
def _raises(exc, match, *args, **kwargs):
    with pytest.raises(exc, match=match):
        tmd.matmul(*args, **kwargs)


def test_input_errors():
    _, _, A, B = operands(8, 6, 10, 4, 5, 3)
    _raises(TypeError, r"A is a numpy\.ndarray; expected a dask\.array\.Array", np.ones((8, 10), np.float32), B)
    _raises(ValueError, r"B has 3 dimensions \(shape \(10, 6, 2\)\); only 2-D", A, da.ones((10, 6, 2), dtype=np.float32))
    _raises(TypeError, "A has dtype int32; supported dtypes are float32, float64", A.astype(np.int32), B)
    _raises(TypeError, "A is float32 and B is float64; both must have one dtype", A, B.astype(np.float64))
    _raises(ValueError, r"inner dimensions differ: A is 8x10, B is 9x6", A, B[:9])
    _raises(ValueError, r"inner chunks do not line up: A's column chunks \(5, 5\) differ from B's row chunks "
            r"\(4, 4, 2\).*rechunk_for_matmul", A, B.rechunk((4, 3)))
    _raises(ValueError, "A has unknown chunk sizes; call A.compute_chunk_sizes", A[A[:, 0] > 0], B)
    masked = da.from_array(np.ma.masked_array(np.ones((8, 10), np.float32)), chunks=(4, 5))
    _raises(TypeError, r"A has blocks of type numpy\.ma(\.core)?\.MaskedArray; allowed: numpy.ndarray or cupy.ndarray", masked, B)
    _raises(ValueError, "unknown strategy|no strategy", A, B, strategy="nope")
    _raises(TypeError, "strategy='auto' picks its own parameters", A, B, tile=16)
    _raises(TypeError, "has no parameter", A, B, strategy="smem_tiled", bogus=3)
    _raises(ValueError, "tensor_core computes float32 only, got float64", A.astype(np.float64), B.astype(np.float64),
            strategy="tensor_core")


def test_describe_graph_refuses_what_matmul_refuses():
    _, _, A, B = operands(8, 6, 10, 4, 5, 3)
    with pytest.raises(ValueError, match="inner chunks do not line up"):
        tmd.describe_graph(A, B.rechunk((4, 3)))


# -- chunking advice ------------------------------------------------------------------------------
@pytest.mark.parametrize("M,N,K", [(3000, 2000, 5000), (100, 100, 100), (1, 4096, 70000), (9000, 8, 300)])
def test_rechunk_for_matmul(M, N, K):
    A = da.zeros((M, K), dtype=np.float32, chunks=(M // 3 + 1, K // 7 + 1))
    B = da.zeros((K, N), dtype=np.float32, chunks=(K // 5 + 1, N // 2 + 1))
    target = 2**20
    A2, B2 = tmd.rechunk_for_matmul(A, B, target_bytes=target, multiple=128)
    assert A2.chunks[1] == B2.chunks[0]
    (bm, bk), bn = A2.chunksize, B2.chunksize[1]
    for blk in (bm * bk, bk * bn, bm * bn):
        assert blk * 4 <= target
    for size, dim in ((bm, M), (bk, K), (bn, N)):
        assert size == dim or size % 128 == 0, (size, dim)
    for chunks in (A2.chunks[0], A2.chunks[1], B2.chunks[1]):
        assert len(set(chunks[:-1])) <= 1 and chunks[-1] <= chunks[0]  # only the last is partial
    tmd.describe_graph(A2, B2)  # a chunking matmul takes
    again = tmd.rechunk_for_matmul(A2, B2, target_bytes=target, multiple=128)
    assert again[0].chunks == A2.chunks and again[1].chunks == B2.chunks


def test_rechunk_for_matmul_errors():
    A, B = da.zeros((10, 20), chunks=5), da.zeros((20, 30), chunks=7)
    with pytest.raises(ValueError, match="target_bytes must be a positive int, got 0"):
        tmd.rechunk_for_matmul(A, B, target_bytes=0)
    with pytest.raises(ValueError, match="inner dimensions differ"):
        tmd.rechunk_for_matmul(A, B[:19])


# -- one worker per GPU ---------------------------------------------------------------------------
def test_gpu_devices(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3, 5")
    assert tmd.gpu_devices(2) == ["3", "5"] and tmd.gpu_devices(1) == ["3"] and tmd.gpu_devices() == ["3", "5"]
    with pytest.raises(ValueError, match="n_gpus=3 but CUDA_VISIBLE_DEVICES names 2 GPU"):
        tmd.gpu_devices(3)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert tmd.gpu_devices(3) == ["0", "1", "2"]
    with pytest.raises(ValueError, match="n_gpus must be a positive int or None"):
        tmd.gpu_devices(0)


@pytest.mark.skipif(HAS_GPU, reason="checks the error where no GPU is visible")
def test_gpu_devices_without_gpu(monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    with pytest.raises(RuntimeError, match="no CUDA GPU is visible"):
        tmd.gpu_devices()


def test_local_gpu_cluster_uses_dask_cuda_when_it_imports(monkeypatch):
    made = []
    fake = types.ModuleType("dask_cuda")
    fake.LocalCUDACluster = lambda **kwargs: made.append(kwargs) or "cluster"
    monkeypatch.setitem(sys.modules, "dask_cuda", fake)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    assert tmd.local_gpu_cluster(2, threads_per_worker=3) == "cluster"
    assert made == [dict(CUDA_VISIBLE_DEVICES="0,1", n_workers=2, threads_per_worker=3, memory_limit="auto")]


def test_local_gpu_cluster_falls_back_to_one_nanny_per_gpu(monkeypatch):
    distributed = pytest.importorskip("distributed", reason="needs distributed (the [dask] extra)")
    monkeypatch.setitem(sys.modules, "dask_cuda", None)  # as if dask_cuda were not installed
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "4,6")
    with pytest.raises(ImportError):
        tmd.local_gpu_cluster(2, use_dask_cuda=True)
    assert tmd.dask_cuda_status().startswith("unavailable (") and "dask_cuda" in tmd.dask_cuda_status()
    with tmd.local_gpu_cluster(2, memory_limit="1GiB") as cluster, distributed.Client(cluster) as client:
        assert isinstance(cluster, distributed.SpecCluster)
        import os

        seen = client.run(lambda: (os.environ.get("CUDA_VISIBLE_DEVICES"), len(os.sched_getaffinity(0)) > 0))
        assert sorted(v[0] for v in seen.values()) == ["4", "6"]
        info = client.scheduler_info()["workers"].values()
        assert [w["nthreads"] for w in info] == [1, 1] and all(w["memory_limit"] == 2**30 for w in info)
