"""Matrix products of Dask arrays whose blocks are CuPy or NumPy arrays, run by our kernels.

One GPU with the threaded scheduler, or one Dask worker per GPU (:func:`local_gpu_cluster`), or a
whole cluster: the graph is the same. Needs the ``[dask]`` extra
(``pip install "tiled-matmul[dask]"``); ``import tiled_matmul`` never imports Dask.

>>> import dask.array as da, tiled_matmul.dask as tmd                  # doctest: +SKIP
>>> A = da.random.random((20000, 30000), chunks=8192).astype("float32")  # doctest: +SKIP
>>> B = da.random.random((30000, 10000), chunks=8192).astype("float32")  # doctest: +SKIP
>>> C = tmd.matmul(A, B)                      # lazy; NumPy blocks in, NumPy blocks out  # doctest: +SKIP
>>> C.compute(scheduler="threads")            # every block product on the current GPU  # doctest: +SKIP

The graph
---------
Output block (i, j) is a chain of nK tasks, one per block of the inner dimension, in the fixed
order k = 0, 1, ..., nK-1::

    acc_0 = A[i,0] @ B[0,j]        acc_k = acc_{k-1} + A[i,k] @ B[k,j]  (in place)

A chain rather than one task that receives all of A[i,:] and B[:,j]: a chain step holds one
accumulator and one block of A and of B, so the scheduler streams the inputs (and frees them)
step by step, which is what lets operands larger than a GPU's memory stream from host memory; a
single task would hold its whole row of A and column of B at once. Each accumulator has exactly
one consumer (the next step), so updating it in place is safe. The order never depends on the
scheduler, the number of workers or where a step runs: same chunking, same bits.
"""

from __future__ import annotations

import math
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

INSTALL_HINT = ('tiled_matmul.dask needs Dask: pip install "tiled-matmul[dask]" '
                '(dask[array], distributed and dask-cuda)')

try:
    import dask.array as da
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph
    from dask.utils import format_bytes
except ImportError as exc:  # the [dask] extra is not installed
    raise ImportError(f"{INSTALL_HINT}; importing it failed with: {exc}") from exc

import tiled_matmul as tm

#: dtypes the block products compute (the kernels' own)
ALLOWED_DTYPES = ("float32", "float64", "float16", "bfloat16")

#: rechunk_for_matmul's default block size: four blocks of this size (an accumulator, a
#: temporary product and one block of A and of B) are what one running step holds on its GPU
DEFAULT_TARGET_BYTES = 256 * 2**20


# -- the one place that runs a block product ------------------------------------------------------
def _accumulate(acc: Any, a: Any, b: Any, strategy: str, params: dict[str, Any], last: bool = True) -> Any:
    """acc += a @ b, in place, on the current CuPy stream; returns acc (None: a new a @ b).

    One kernel per step: :func:`tiled_matmul.gemm` with beta = 1 reads acc in its epilogue and
    writes acc + a @ b over it (no temporary block, no second pass over acc). A chain of 16-bit
    blocks accumulates in float32 (``out_dtype=float32``) and rounds to the 16-bit type once, at
    its `last` step, as one kernel over the whole inner dimension would."""
    wide = {"out_dtype": np.float32} if a.dtype.itemsize == 2 else {}  # 16-bit blocks: a float32 chain
    if acc is None:
        return tm.matmul(a, b, strategy, **params, **({} if last else wide))
    if wide and last:
        return tm.gemm(a, b, acc, beta=1.0, strategy=strategy, **params)
    return tm.gemm(a, b, acc, beta=1.0, out=acc, strategy=strategy, **params, **wide)


class _CupyBlocks:
    """How a chain step meets the GPU: the device, a per-thread stream, moving host blocks.

    Every step runs on a non-blocking stream of its own thread (first waiting for the device's
    default stream, where CuPy producers of device blocks wrote them), so one thread's host-to-
    device copies overlap another thread's products, and synchronises that stream before it
    returns: a finished task's block is complete, whichever thread or worker reads it next.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    @contextmanager
    def running(self, *blocks: Any) -> Iterator[None]:
        import cupy

        device = next((x.device for x in blocks if isinstance(x, cupy.ndarray)), None)
        with device if device is not None else cupy.cuda.Device():
            streams = self._local.__dict__.setdefault("streams", {})
            dev_id = cupy.cuda.Device().id
            stream = streams.get(dev_id)
            if stream is None:
                stream = streams[dev_id] = cupy.cuda.Stream(non_blocking=True)
            stream.wait_event(cupy.cuda.Stream.null.record())
            with stream:
                yield
            stream.synchronize()

    @staticmethod
    def to_device(x: Any) -> Any:
        import cupy

        return x if isinstance(x, cupy.ndarray) else cupy.asarray(np.ascontiguousarray(x))

    @staticmethod
    def to_host(x: Any) -> np.ndarray:
        return x.get()


#: what chain steps use; tests without a GPU swap in a NumPy stand-in
_BLOCKS = _CupyBlocks()


def _step(acc: Any, a: Any, b: Any, strategy: str, params: dict[str, Any], to_host: bool,
          last: bool = True) -> Any:
    """One chain step: acc (None at k = 0) += a @ b on the worker's GPU; the `last` step of a
    chain with NumPy inputs hands the block back as NumPy."""
    with _BLOCKS.running(acc, a, b):
        acc = _accumulate(acc, _BLOCKS.to_device(a), _BLOCKS.to_device(b), strategy, params, last)
        if to_host:
            acc = _BLOCKS.to_host(acc)
    return acc


# -- checks ----------------------------------------------------------------------------------------
def _side(x: da.Array, what: str) -> str:
    """'numpy' or 'cupy': the kind of array the blocks of `x` are."""
    kind = type(x._meta)
    if kind is np.ndarray:
        return "numpy"
    if kind.__module__.split(".")[0] == "cupy" and kind.__name__ == "ndarray":
        return "cupy"
    raise TypeError(f"{what} has blocks of type {kind.__module__}.{kind.__name__}; "
                    f"allowed: numpy.ndarray or cupy.ndarray blocks")


def _short(chunks: tuple[int, ...]) -> str:
    return str(chunks) if len(chunks) <= 6 else f"({', '.join(map(str, chunks[:3]))}, ..., {chunks[-1]}) [{len(chunks)} chunks]"


def _check(A: Any, B: Any, *, inner_chunks: bool = True) -> None:
    for what, x in (("A", A), ("B", B)):
        if not isinstance(x, da.Array):
            raise TypeError(f"{what} is a {type(x).__module__}.{type(x).__name__}; expected a dask.array.Array "
                            f"(wrap it with dask.array.from_array(x, chunks=...))")
        if x.ndim != 2:
            raise ValueError(f"{what} has {x.ndim} dimensions (shape {x.shape}); only 2-D arrays are supported")
        if str(x.dtype) not in ALLOWED_DTYPES:
            raise TypeError(f"{what} has dtype {x.dtype}; supported dtypes are {', '.join(ALLOWED_DTYPES)}")
        if any(math.isnan(c) for dim in x.chunks for c in dim):
            raise ValueError(f"{what} has unknown chunk sizes; call {what}.compute_chunk_sizes() first")
        _side(x, what)
    if A.dtype != B.dtype:
        raise TypeError(f"A is {A.dtype} and B is {B.dtype}; both must have one dtype "
                        f"(convert one with .astype)")
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"inner dimensions differ: A is {A.shape[0]}x{A.shape[1]}, B is {B.shape[0]}x{B.shape[1]}")
    if inner_chunks and A.chunks[1] != B.chunks[0]:
        raise ValueError(
            f"inner chunks do not line up: A's column chunks {_short(A.chunks[1])} differ from B's row chunks "
            f"{_short(B.chunks[0])}; rechunk one of them (B.rechunk({{0: A.chunks[1]}})), or both with "
            f"tiled_matmul.dask.rechunk_for_matmul(A, B)")


def _check_kernel(strategy: str, params: dict[str, Any], dtype: Any) -> None:
    """Fail at graph construction, not inside a task, on a bad strategy or config."""
    k = tm.kernel(strategy, **params)
    if strategy != "auto":
        k.config.validate(dtype=dtype)


# -- the graph -------------------------------------------------------------------------------------
def matmul(A: da.Array, B: da.Array, *, strategy: str = "auto", precision: Any = None,
           name: str | None = None, **tile_params: int) -> da.Array:
    """C = A @ B for 2-D Dask arrays of CuPy or NumPy blocks; returns a lazy Dask array.

    Every block product runs our kernels: the first of each output block
    ``tiled_matmul.matmul(strategy, precision=..., **tile_params)``, the next ones
    ``tiled_matmul.gemm(..., beta=1.0)`` into the same accumulator. Output block (i, j)
    accumulates A[i,k] @ B[k,j] in place for k = 0, 1, ..., nK-1 in that order (see the module's docstring), so results are bit-identical
    whatever the number of workers or GPUs, for a given chunking and GPU model.

    * Blocks: CuPy blocks are multiplied on their own GPU; NumPy blocks are copied to the
      current GPU of the worker (thread) that runs the step. The result's blocks are NumPy when
      both A and B have NumPy blocks, else CuPy (the block stays on the GPU that computed it).
    * Chunks: A's column chunks must equal B's row chunks; otherwise a ValueError says so (no
      silent rechunk: moving blocks is the expensive part, so it is the caller's choice).
      :func:`rechunk_for_matmul` picks compatible chunks; C has chunks (A.chunks[0], B.chunks[1]).
    * Errors: TypeError/ValueError for non-Dask or non-2-D operands, dtypes other than float32,
      float64, float16 and bfloat16 or two different ones, unknown chunk sizes, and a bad strategy or config,
      raised here rather than inside a task.
    * `name` sets the output's key name (default: a token of the inputs and the options).
    """
    _check(A, B)
    params = dict(tile_params)
    _check_kernel(strategy, params, A.dtype)
    if precision is not None:
        params["precision"] = precision
    to_host = _side(A, "A") == "numpy" and _side(B, "B") == "numpy"
    meta = A._meta if not to_host and _side(A, "A") == "cupy" else B._meta
    name = name or "tm-matmul-" + tokenize(A, B, strategy, sorted(params.items()))
    acc_name = name + "-acc"
    nI, nK, nJ = A.numblocks[0], A.numblocks[1], B.numblocks[1]
    layer: dict[tuple, tuple] = {}
    for i in range(nI):
        for j in range(nJ):
            prev = None
            for k in range(nK):
                last = k == nK - 1
                key = (name, i, j) if last else (acc_name, i, j, k)
                layer[key] = (_step, prev, (A.name, i, k), (B.name, k, j), strategy, params, to_host and last, last)
                prev = key
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[A, B])
    return da.Array(graph, name, (A.chunks[0], B.chunks[1]), meta=meta)


# -- chunking advice -------------------------------------------------------------------------------
def _round_down(n: int, multiple: int) -> int:
    return n // multiple * multiple if n >= multiple else n


def rechunk_for_matmul(A: da.Array, B: da.Array, target_bytes: int = DEFAULT_TARGET_BYTES, *,
                       multiple: int = 256) -> tuple[da.Array, da.Array]:
    """(A, B) rechunked for :func:`matmul`: inner chunks that line up and blocks of at most
    `target_bytes` each.

    Output blocks are square, bm = bn = the largest multiple of `multiple` whose bm x bn block
    fits `target_bytes` (capped at M and N); the inner chunk bk is the largest multiple of
    `multiple` (capped at K) for which A's bm x bk and B's bk x bn blocks fit it too, so skinny
    outputs get long inner blocks and fewer chain steps. One running step holds about four such
    blocks on its GPU (accumulator, temporary product, one block of A and one of B). Only the last
    block along each dimension is partial. A chunking that is already right comes back unchanged.
    """
    _check(A, B, inner_chunks=False)
    if not isinstance(target_bytes, (int, np.integer)) or isinstance(target_bytes, bool) or target_bytes < 1:
        raise ValueError(f"target_bytes must be a positive int, got {target_bytes!r}")
    if not isinstance(multiple, (int, np.integer)) or isinstance(multiple, bool) or multiple < 1:
        raise ValueError(f"multiple must be a positive int, got {multiple!r}")
    (M, K), N = A.shape, B.shape[1]
    elems = max(1, target_bytes // A.dtype.itemsize)
    side = _round_down(max(1, math.isqrt(elems)), multiple)
    bm, bn = max(1, min(M, side)), max(1, min(N, side))
    bk = max(1, min(K, _round_down(max(1, elems // max(bm, bn)), multiple)))
    return A.rechunk((bm, bk)), B.rechunk((bk, bn))


@dataclass(frozen=True)
class GraphReport:
    """What :func:`matmul` builds for a chunking, and what it moves (from shapes alone).

    `bytes_read` counts the blocks the chain steps read: each of the nI·nJ·nK steps reads one
    block of A and one of B, so A is read nJ times and B nI times. With NumPy blocks that is the
    host-to-device traffic (plus `output_bytes` back); with CuPy blocks on several workers it
    bounds what crosses between them (0 when every block is where its step runs).
    """

    shape: tuple[int, int, int]
    dtype: str
    grid: tuple[int, int, int]  # (nI, nJ, nK)
    block: tuple[int, int, int]  # the largest (bm, bn, bk)
    host_blocks: bool
    input_tasks: int
    steps: int
    flops: int
    operand_bytes: int
    output_bytes: int
    bytes_read: int
    step_bytes: int  # the most device memory one running step holds

    @property
    def tasks(self) -> int:
        return self.input_tasks + self.steps

    @property
    def intensity(self) -> float:
        """flops per byte read by the steps."""
        return self.flops / self.bytes_read if self.bytes_read else float("inf")

    def __str__(self) -> str:
        (M, N, K), (nI, nJ, nK), (bm, bn, bk) = self.shape, self.grid, self.block
        size = format_bytes
        where = "host (NumPy) blocks: read = host->device copies" if self.host_blocks else \
            "device (CuPy) blocks: read = at most the bytes moved between workers"
        return "\n".join([
            f"C[{M}x{N}] = A[{M}x{K}] @ B[{K}x{N}], {self.dtype}, {where}",
            f"  block grid     nI x nJ x nK = {nI} x {nJ} x {nK}; largest blocks bm={bm} bn={bn} bk={bk}",
            f"  tasks          {self.tasks} = {self.steps} chain steps ({nI * nJ} chains of {nK}) + {self.input_tasks} input tasks",
            f"  flops          {self.flops:.4g} ({self.flops / max(self.steps, 1):.4g} per step)",
            f"  operands       A+B {size(self.operand_bytes)}, C {size(self.output_bytes)}",
            f"  bytes read     {size(self.bytes_read)} (A x{nJ} + B x{nI}); {self.intensity:.1f} flop/B",
            f"  per step       {size(self.step_bytes)} on the GPU (accumulator, temporary, A and B blocks)",
        ])


def describe_graph(A: da.Array, B: da.Array) -> GraphReport:
    """The graph :func:`matmul` would build for this chunking: tasks, flops and bytes moved.

    ``print(describe_graph(A, B))`` gives the text; the fields are in :class:`GraphReport`.
    Raises what :func:`matmul` raises for operands it refuses.
    """
    _check(A, B)
    (M, K), N = A.shape, B.shape[1]
    size = A.dtype.itemsize
    nI, nK, nJ = A.numblocks[0], A.numblocks[1], B.numblocks[1]
    bm, bk, bn = max(A.chunks[0], default=0), max(A.chunks[1], default=0), max(B.chunks[1], default=0)
    a_bytes, b_bytes = M * K * size, K * N * size
    return GraphReport(
        shape=(M, N, K), dtype=str(A.dtype), grid=(nI, nJ, nK), block=(bm, bn, bk),
        host_blocks=_side(A, "A") == "numpy" and _side(B, "B") == "numpy",
        input_tasks=len(A.__dask_graph__()) + len(B.__dask_graph__()),
        steps=nI * nJ * nK, flops=2 * M * N * K,
        operand_bytes=a_bytes + b_bytes, output_bytes=M * N * size,
        bytes_read=nJ * a_bytes + nI * b_bytes,
        step_bytes=(2 * bm * bn + bm * bk + bk * bn) * size,
    )


# -- one worker per GPU ----------------------------------------------------------------------------
def dask_cuda_status() -> str:
    """'dask_cuda <version>' where dask_cuda imports, else why not (the fallback is then used)."""
    try:
        import dask_cuda
    except Exception as exc:  # ImportError, or a CUDA library it needs failing to load
        return f"unavailable ({type(exc).__name__}: {exc})"
    return f"dask_cuda {getattr(dask_cuda, '__version__', '?')}"


def gpu_devices(n_gpus: int | None = None) -> list[str]:
    """The CUDA_VISIBLE_DEVICES entry of each of the first `n_gpus` GPUs this process may use:
    the entries of its own CUDA_VISIBLE_DEVICES when set, else 0, 1, ... (all GPUs CuPy sees when
    `n_gpus` is None)."""
    visible = [d.strip() for d in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if d.strip()]
    if n_gpus is None:
        if visible:
            return visible
        if not tm.gpu_available():
            raise RuntimeError("no CUDA GPU is visible (cupy.is_available() is False); pass n_gpus to "
                               "start workers anyway")
        import cupy

        n_gpus = cupy.cuda.runtime.getDeviceCount()
    if isinstance(n_gpus, bool) or not isinstance(n_gpus, (int, np.integer)) or n_gpus < 1:
        raise ValueError(f"n_gpus must be a positive int or None (all GPUs), got {n_gpus!r}")
    if visible and n_gpus > len(visible):
        raise ValueError(f"n_gpus={n_gpus} but CUDA_VISIBLE_DEVICES names {len(visible)} GPU(s): {','.join(visible)}")
    return visible[:n_gpus] if visible else [str(i) for i in range(n_gpus)]


def local_gpu_cluster(n_gpus: int | None = None, *, threads_per_worker: int = 1,
                      memory_limit: Any = "auto", use_dask_cuda: bool | None = None, **kwargs: Any):
    """A local Dask cluster with one worker process per GPU, each seeing only its own GPU.

    ``dask_cuda.LocalCUDACluster`` where dask_cuda imports (``use_dask_cuda=None`` or True; True
    raises if it does not); otherwise (or with ``use_dask_cuda=False``) a ``distributed``
    SpecCluster of Nanny workers, each started with ``CUDA_VISIBLE_DEVICES`` set to its GPU.
    `memory_limit` is per worker ("auto": the host's memory divided by the workers); `kwargs` go
    to the cluster class. Use it as ``with local_gpu_cluster(2) as cluster, Client(cluster): ...``.
    """
    devices = gpu_devices(n_gpus)
    if use_dask_cuda or use_dask_cuda is None:
        try:
            from dask_cuda import LocalCUDACluster
        except Exception:
            if use_dask_cuda:
                raise
        else:
            return LocalCUDACluster(CUDA_VISIBLE_DEVICES=",".join(devices), n_workers=len(devices),
                                    threads_per_worker=threads_per_worker, memory_limit=memory_limit, **kwargs)
    from distributed import Nanny, Scheduler, SpecCluster
    from distributed.system import MEMORY_LIMIT

    if memory_limit == "auto":
        memory_limit = MEMORY_LIMIT // len(devices)
    workers = {
        f"gpu-{dev}": {"cls": Nanny, "options": {"nthreads": threads_per_worker, "memory_limit": memory_limit,
                                                 "env": {"CUDA_VISIBLE_DEVICES": dev}}}
        for dev in devices
    }
    kwargs.setdefault("scheduler", {"cls": Scheduler, "options": {"dashboard_address": ":0"}})
    return SpecCluster(workers=workers, **kwargs)


__all__ = ["matmul", "rechunk_for_matmul", "describe_graph", "GraphReport", "local_gpu_cluster",
           "gpu_devices", "dask_cuda_status", "INSTALL_HINT", "ALLOWED_DTYPES", "DEFAULT_TARGET_BYTES"]
