"""GPU tests: operands with one unit stride are read in place (marked `gpu`).

Every tunable rung at its default config, for A row- or column-major x B row- or column-major,
tight or with a leading dimension larger than the width (a slice), over ragged and zero-size
shapes, float32 and float64 where the rung computes them: values against a float64 reference
(numpy on the host) with the output poisoned with NaN, and the pointers the kernel receives are
the caller's (execute.launch_hook) with no layout copy counted (execute.layout_copies_made),
except where the rung declares it cannot read the layout (the GEMV rungs: that operand is copied,
and the test checks exactly that one is).
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute
from tiled_matmul.semantics import layout_copies, operand_layout

from .conftest import poisoned
from .test_gpu_gemm import assert_close, unfused

pytestmark = pytest.mark.gpu

# the rungs that read other layouts in place (the half rungs copy them first: LAYOUTS == ())
RUNGS = [n for n, e in tm.STRATEGIES.items() if e.tunable and e.config_cls.LAYOUTS]
LAYOUTS = [(False, False), (True, False), (False, True), (True, True)]
LAYOUT_IDS = ["a@b", "aT@b", "a@bT", "aT@bT"]
#: (M, N, K): ragged sizes 1, 2, 7, 33, 127, 129, 1000, non-square, and zero-size
SHAPES = [(1, 1, 1), (2, 7, 33), (7, 33, 2), (33, 2, 7), (127, 129, 33), (129, 127, 1000), (1000, 33, 129),
          (1, 1000, 127), (1000, 1, 129), (33, 1000, 7), (0, 5, 7), (5, 0, 7), (5, 7, 0)]
#: shapes also run with a leading dimension past the width (operands sliced out of bigger arrays)
PADDED = [(2, 7, 33), (127, 129, 33), (129, 127, 1000), (1, 1000, 127), (1000, 1, 129)]


def _operand(rng, rows, cols, col_major, pad, dtype):
    """A rows x cols cupy view: row-major (C order) or column-major (a transpose), with `pad`
    extra elements per leading-dimension stride (a slice of a wider array) when pad > 0."""
    import cupy as cp

    if col_major:
        base = cp.asarray(rng.uniform(-1, 1, (cols, rows + pad)).astype(dtype))
        return base[:, :rows].T
    base = cp.asarray(rng.uniform(-1, 1, (rows, cols + pad)).astype(dtype))
    return base[:, :cols]


def _cases():
    out = []
    for name in RUNGS:
        for dt in tm.STRATEGIES[name].config_cls.SUPPORTED_DTYPES:
            for pair, pid in zip(LAYOUTS, LAYOUT_IDS):
                for shape in SHAPES:
                    out.append((name, dt, pair, shape, 0, f"{name}-{dt}-{pid}-{shape}"))
                for shape in PADDED:
                    out.append((name, dt, pair, shape, 3, f"{name}-{dt}-{pid}-{shape}-ld+3"))
    return out


CASES = _cases()


def _expect_in_place(name, a, b, K, N):
    """(A read in place, B read in place) for this rung, as execute decides it."""
    la, lb = operand_layout(a.shape, a.strides, a.itemsize), operand_layout(b.shape, b.strides, b.itemsize)
    copy_a, copy_b = layout_copies(la, lb, K, N, tm.STRATEGIES[name].default.layouts())
    return not copy_a, not copy_b


@pytest.mark.parametrize("name,dtype,pair,shape,pad", [c[:5] for c in CASES], ids=[c[5] for c in CASES])
def test_layout_in_place(name, dtype, pair, shape, pad, rng, monkeypatch):
    import cupy as cp

    M, N, K = shape
    dt = np.dtype(dtype)
    a = _operand(rng, M, K, pair[0], pad, dt)
    b = _operand(rng, K, N, pair[1], pad, dt)
    seen = []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
    out = poisoned((M, N), dt)
    got = tm.matmul(a, b, strategy=name, out=out)
    assert got is out
    ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
    assert_close(out, ref, scale, dt, max(K, 1), f"{name} {dtype} {pair} {shape} pad {pad}")
    if M and N and K and not seen:
        # plain C-contiguous operands take the plain 2-D launch, which has no hook
        assert a.flags.c_contiguous and b.flags.c_contiguous, "the general path did not launch"
    elif M and N and K:
        in_a, in_b = _expect_in_place(name, a, b, K, N)
        a_ptr, b_ptr = seen[0][0], seen[0][1]
        assert (a_ptr == a.data.ptr) == in_a, (name, "A", in_a)
        assert (b_ptr == b.data.ptr) == in_b, (name, "B", in_b)
        assert execute.layout_copies_made["strides"] == 0
        assert execute.layout_copies_made["config"] == (not in_a) + (not in_b)
        if name not in ("gemv_xb", "gemv_ax") and pair in tm.STRATEGIES[name].default.layouts():
            assert in_a and in_b, f"{name} copied an operand it declares it reads in place"


@pytest.mark.parametrize("name", RUNGS)
def test_fresh_result_and_memory_pool(name, rng):
    """Without out=: a.T @ b and a @ b.T allocate nothing but the result (no operand copy)."""
    import cupy as cp

    dt = np.dtype(tm.STRATEGIES[name].default_dtype.numpy)
    M, N, K = 96, 80, 112
    a0 = cp.asarray(rng.uniform(-1, 1, (K, M)).astype(dt))
    b0 = cp.asarray(rng.uniform(-1, 1, (N, K)).astype(dt))
    layouts = tm.STRATEGIES[name].default.layouts()
    pool = cp.get_default_memory_pool()
    for a, b, pair in ((a0.T, cp.asarray(rng.uniform(-1, 1, (K, N)).astype(dt)), (True, False)),
                       (cp.asarray(rng.uniform(-1, 1, (M, K)).astype(dt)), b0.T, (False, True))):
        tm.matmul(a, b, strategy=name)  # compile first: its own allocations do not count
        cp.cuda.Device().synchronize()
        before = pool.used_bytes()
        c = tm.matmul(a, b, strategy=name)
        grew = pool.used_bytes() - before
        ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
        assert_close(c, ref, scale, dt, K, f"{name} {pair}")
        if pair in layouts:
            # the result is all the call allocates (the pool may round a block up to 512 bytes)
            assert grew <= c.nbytes + 512, (name, pair, grew, c.nbytes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_auto_reads_layouts(dtype, rng, monkeypatch):
    """auto on every layout, over shapes that pick different rungs (GEMV, split-K, tensor cores):
    right values, and an operand is copied only where the chosen config cannot read it."""
    import cupy as cp

    # (1024^3: float64's tuned pick is in dmma's pairs layout, which reads row-major operands only)
    for M, N, K in [(1, 4096, 4096), (4096, 1, 4096), (64, 64, 8192), (512, 384, 256), (1000, 129, 33), (1024, 1024, 1024)]:
        for pair in LAYOUTS:
            a = _operand(rng, M, K, pair[0], 0, np.dtype(dtype))
            b = _operand(rng, K, N, pair[1], 0, np.dtype(dtype))
            seen = []
            monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
            monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
            out = poisoned((M, N), dtype)
            tm.matmul(a, b, out=out)
            ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
            assert_close(out, ref, scale, np.dtype(dtype), K, f"auto {pair} {(M, N, K)}")
            if not seen:  # plain C-contiguous operands: the plain 2-D launch (no hook)
                assert a.flags.c_contiguous and b.flags.c_contiguous
                continue
            copied = execute.layout_copies_made["config"]
            assert (seen[0][0] == a.data.ptr) + (seen[0][1] == b.data.ptr) == 2 - copied
            if dtype == np.float64 and M == 1024:  # the pairs pick gives way to a dmma config that reads it
                assert copied == 0, pair


@pytest.mark.parametrize("name", ["warp_tiled", "tensor_core", "wgmma", "dmma", "split_k", "wgmma_split_k", "dmma_split_k"])
def test_batched_transposed_operands(name, rng, monkeypatch):
    """Batches of transposed and sliced operands, and a broadcast transposed weight: one launch,
    the callers' pointers, no copy."""
    import cupy as cp

    dt = np.dtype(tm.STRATEGIES[name].default_dtype.numpy)
    bsz, M, N, K = 5, 70, 66, 130
    a = cp.asarray(rng.uniform(-1, 1, (bsz, K, M)).astype(dt)).swapaxes(-1, -2)  # batch of A^T
    bw = cp.asarray(rng.uniform(-1, 1, (bsz, K, N + 6)).astype(dt))[:, :, :N]  # sliced, ld = N + 6
    w = cp.asarray(rng.uniform(-1, 1, (N, K)).astype(dt)).T  # one shared transposed weight
    for x, y in ((a, bw), (a, w), (bw.swapaxes(-1, -2)[:, :, :K // 2], a[:, : K // 2])):
        seen = []
        monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
        monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
        out = poisoned(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1]), dt)
        tm.matmul(x, y, strategy=name, out=out)
        ref, scale = unfused(cp.asnumpy(x), cp.asnumpy(y))
        assert_close(out, ref, scale, dt, x.shape[-1], f"{name} batched {x.shape} @ {y.shape}")
        assert len(seen) == 1 and seen[0][-1] == bsz  # one launch of the whole batch
        assert seen[0][0] == x.data.ptr and seen[0][1] == y.data.ptr
        assert sum(execute.layout_copies_made.values()) == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gemm_epilogue_with_transposed_operand(dtype, rng, monkeypatch):
    """gemm(a, b, trans_a=True, bias, relu, beta) reads A^T in place through the fused kernel."""
    seen, a0, b = _gemm_trans_a(rng, monkeypatch, 200, 130, 96, dtype, 5, strategy="warp_tiled")
    assert seen[0][0] == a0.data.ptr and seen[0][1] == b.data.ptr


def _gemm_trans_a(rng, monkeypatch, M, N, K, dtype, pad, **kw):
    """gemm(a0, b, c, trans_a=True, alpha=0.5, beta=2.0, bias, relu, **kw) against the unfused
    float64 reference, B's rows `pad` elements longer than N; the launches the hook saw, a0, b."""
    import cupy as cp

    a0 = cp.asarray(rng.uniform(-1, 1, (K, M)).astype(dtype))
    b = cp.asarray(rng.uniform(-1, 1, (K, N + pad)).astype(dtype))[:, :N]
    c = cp.asarray(rng.uniform(-1, 1, (M, N)).astype(dtype))
    bias = cp.asarray(rng.uniform(-1, 1, N).astype(dtype))
    seen = []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    got = tm.gemm(a0, b, c, trans_a=True, alpha=0.5, beta=2.0, bias=bias, activation="relu", **kw)
    ref, scale = unfused(cp.asnumpy(a0).T, cp.asnumpy(b), alpha=0.5, beta=2.0, c=cp.asnumpy(c),
                         bias=cp.asnumpy(bias), activation="relu")
    assert_close(got, ref, scale, np.dtype(dtype), K, f"gemm trans_a {(M, N, K)} {kw}")
    return seen, a0, b


#: small skinny float32 products whose warp_tiled pick dispatch.MODEL_SMALL hands to the cost
#: model, on the GEMV rungs that take an epilogue (gemv_ax in chunks of columns, gemv_xb with K
#: groups)
MODEL_SMALL_SHAPES = [(2436, 24, 250), (248, 39, 128), (669, 18, 162), (99, 56, 210), (26, 1928, 193),
                      (53, 813, 246)]


@pytest.mark.parametrize("shape", MODEL_SMALL_SHAPES, ids=["x".join(map(str, s)) for s in MODEL_SMALL_SHAPES])
def test_auto_small_skinny_model_picks_on_the_general_path(shape, rng, monkeypatch):
    """auto's MODEL_SMALL pick through the general path, against the float64 reference: gemm's
    epilogue on A^T fires the model's rung (it takes the epilogue; an A^T it does not read is
    copied first), and a batch of two with a B each (picked for its stacked rows) is right."""
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    dt = np.dtype(np.float32)
    pick = dispatch.choose(M, N, K, "float32")
    assert pick.source == "model" and pick.strategy in ("gemv_ax", "gemv_xb"), pick
    ran = []  # the kernel each call's plan fires
    fire = execute._Plan.fire
    monkeypatch.setattr(execute._Plan, "fire", lambda self, *args: (ran.append(self.kern), fire(self, *args))[1])
    _gemm_trans_a(rng, monkeypatch, M, N, K, dt, 0)
    assert ran and {k.strategy.name for k in ran} == {pick.strategy}, ran
    a = cp.asarray(rng.uniform(-1, 1, (2, M, K)).astype(dt))
    b = cp.asarray(rng.uniform(-1, 1, (2, K, N)).astype(dt))
    out = poisoned((2, M, N), dt)
    tm.matmul(a, b, out=out)
    for i in range(2):
        ref, scale = unfused(cp.asnumpy(a[i]), cp.asnumpy(b[i]))
        assert_close(out[i], ref, scale, dt, K, f"batched {shape} [{i}]")


def test_other_strides_are_copied_and_right(rng, monkeypatch):
    """Strides no layout reads (every other column, reversed rows) are copied first, as before."""
    import cupy as cp

    a = cp.asarray(rng.uniform(-1, 1, (64, 200)).astype(np.float32))[:, ::2]
    b = cp.asarray(rng.uniform(-1, 1, (100, 50)).astype(np.float32))[::-1]
    monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
    out = poisoned((64, 50), np.float32)
    tm.matmul(a, b, strategy="wgmma", out=out)
    ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
    assert_close(out, ref, scale, np.dtype(np.float32), 100, "strided")
    assert execute.layout_copies_made["strides"] == 2


@pytest.mark.parametrize("shape", [(4, 45, 6043), (3, 236, 153), (2, 36, 7515), (4, 471, 3574)])
def test_auto_gemv_xb_model_configs_on_the_general_path(shape, rng, monkeypatch):
    """float32 x·B whose gemv_xb config the cost model picks (dispatch.MODEL_CONFIGS; K groups on a
    narrow B), in ieee mode, through the general path (gemv_xb takes batches, epilogues and a
    column-major A itself): a batch of two sharing one B (picked as its stacked 2M rows), and
    gemm's epilogue on A^T, against a float64 reference; each call fires the model's config."""
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    dt = np.dtype(np.float32)
    entry = tm.STRATEGIES["gemv_xb"]
    picks = [dispatch.choose(m, N, K, "float32", precision="ieee") for m in (2 * M, M)]
    assert all((c.strategy, c.source) == ("gemv_xb", "model") for c in picks), picks
    want = [entry.make_config(**c.params) for c in picks]
    assert all(c.kg > 1 for c in want), want
    ran = []  # the kernel each call's plan fires
    fire = execute._Plan.fire
    monkeypatch.setattr(execute._Plan, "fire", lambda self, *args: (ran.append(self.kern), fire(self, *args))[1])
    a = cp.asarray(rng.uniform(-1, 1, (2, M, K)).astype(dt))
    w = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(dt))  # one weight for the batch
    out = poisoned((2, M, N), dt)
    tm.matmul(a, w, out=out, precision="ieee")
    ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(w))
    assert_close(out, ref, scale, dt, K, f"batched {shape}")
    seen, a0, _ = _gemm_trans_a(rng, monkeypatch, M, N, K, dt, 0, precision="ieee")
    assert seen and seen[0][0] == a0.data.ptr  # A^T read in place
    assert [(k.strategy.name, k.config) for k in ran] == [("gemv_xb", c) for c in want], ran
