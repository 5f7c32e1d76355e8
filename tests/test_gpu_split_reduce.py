"""GPU checks of the split-K reduce kernel's lanes (kernels/_reduce.cuh.j2, marked `gpu`): with
L = SplitReduce.reduce_lanes(...) lanes per output, lane l adds slices l, l + L, ... in order and
lane 0 adds the lanes' sums in lane order. The kernel's C must equal, bit for bit, that order
computed on the host in the same dtype from the workspace the slices kernel wrote, for the vector
and the element paths, with and without a lane past the last slice, and with one lane.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.device import device_limits
from tiled_matmul.operands import launch_flags

pytestmark = pytest.mark.gpu

#: (strategy, params, M, N, K, dtype, slices): vector path (N a multiple of 4), element path
#: (N odd), slice counts that are and are not a multiple of the lane count
CASES = [
    ("gemv_xb", dict(mt=1), 1, 8192, 8192, "float32", 32),
    ("gemv_xb", dict(mt=1), 1, 4096, 16384, "float64", 24),
    ("gemv_xb", dict(mt=2), 3, 1001, 4096, "float32", 7),
    ("gemv_ax", dict(nt=1), 200, 1, 65536, "float64", 5),
    ("wgmma_split_k", dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=4), 64, 64, 4096, "float32", 3),
    ("dmma_split_k", dict(split_k=4), 256, 256, 256, "float64", 4),
]
IDS = [f"{c[0]}-{c[2]}x{c[3]}x{c[4]}-{c[5]}-s{c[6]}" for c in CASES]


def _lane_order_sum(work: np.ndarray, lanes: int) -> np.ndarray:
    slices = work.shape[0]
    parts = []
    for lane in range(lanes):
        s = work[lane].copy() if lane < slices else np.zeros_like(work[0])
        for z in range(lane + lanes, slices, lanes):
            s += work[z]
        parts.append(s)
    total = parts[0]
    for p in parts[1:]:
        total = total + p
    return total


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("one_lane", [False, True], ids=["lanes", "one_lane"])
def test_reduce_adds_in_the_lane_order(case, one_lane, monkeypatch):
    import cupy as cp

    name, params, M, N, K, dtype, slices = case
    mk = tm.kernel(name, **params)
    cfg, ck = mk.config, mk.compiled(dtype)
    if one_lane:
        monkeypatch.setattr(type(cfg), "REDUCE_LANE_BLOCKS", 0)
    gen = cp.random.default_rng(7)
    a = gen.random((M, K), dtype=np.dtype(dtype)) * 2 - 1
    b = gen.random((K, N), dtype=np.dtype(dtype)) * 2 - 1
    c = cp.full((M, N), np.nan, dtype=dtype)
    work = cp.full((slices, M, N), np.nan, dtype=dtype)
    stream = cp.cuda.get_current_stream()
    grid = (cfg.output_blocks(M, N) if hasattr(cfg, "output_blocks") else cfg.grid(M, N)[0], 1, slices)
    flags = launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, np.dtype(dtype).itemsize)
    ck.launcher(grid, a.data.ptr, b.data.ptr, work.data.ptr, M, N, K, flags, stream.ptr)
    cfg.launch_reduce(ck, work.data.ptr, c, M, N, flags, stream, slices)
    items = M * N // (16 // c.itemsize) if flags & 2 else M * N
    lanes = cfg.reduce_lanes(items, slices, device_limits().sm_count)
    assert (lanes == 1) == one_lane or slices == 1, (lanes, case)
    want = _lane_order_sum(cp.asnumpy(work), lanes)
    got = cp.asnumpy(c)
    ints = np.int32 if np.dtype(dtype).itemsize == 4 else np.int64
    assert np.array_equal(got.view(ints), want.view(ints)), (case, lanes)
    assert tm.check(c, a, b).passed
