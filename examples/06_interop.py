"""Example 6: interop with CuPy streams, ``out=`` and PyTorch tensors.

* ``out=``: the result is written into your array and that same object is returned; a wrong
  ``out`` is refused (shape, dtype, layout, overlap) before anything runs, GPU or not.
* CuPy streams: kernels launch on the *current* CuPy stream and the call does not synchronise,
  so ``with cupy.cuda.Stream():`` puts the work on that stream.
* PyTorch: CUDA tensors are read in place through ``__cuda_array_interface__`` (no copy); the
  result is a CuPy array that ``torch.as_tensor`` wraps without a copy, or your own tensor with
  ``out=``. A torch stream becomes a CuPy stream with ``cupy.cuda.Stream.from_external``.

    python examples/06_interop.py
    python examples/06_interop.py --shape 1000x700x300

Without a GPU only the ``out=`` rules run; without torch the torch part is skipped, saying why.
"""

from __future__ import annotations

import argparse

import numpy as np

import tiled_matmul as tm
from _common import device_operands, have_gpu, random_inputs, shape


def out_rules(M: int, N: int, K: int) -> None:
    """Bad `out=` arguments raise before any launch: these run without a GPU."""
    a, b = random_inputs(M, N, K)
    sq_a, sq_b = random_inputs(M, N, N)  # K = N, so a itself has the output's shape
    bad = {  # what is wrong: (a, b, out)
        "wrong shape": (a, b, np.empty((M, M + 1), np.float32)),
        "wrong dtype": (a, b, np.empty((M, N), np.float64)),
        "read-only": (a, b, np.broadcast_to(np.empty((1, N), np.float32), (M, N))),
        "overlaps input a": (sq_a, sq_b, sq_a),
    }
    print("out= must be the right shape and dtype (numpy's rules), writable, and share no memory with a or b:")
    for what, (x, y, out) in bad.items():
        try:
            tm.matmul(x, y, out=out, strategy="smem_tiled")
        except (TypeError, ValueError) as exc:
            print(f"  {what:<17} -> {type(exc).__name__}: {exc}")
        except RuntimeError as exc:  # passed the checks, then found no GPU: should not happen here
            print(f"  {what:<17} -> accepted?! ({exc})")


def cupy_part(M: int, N: int, K: int) -> None:
    import cupy

    # out= with CuPy arrays: written in place, and `out` itself comes back.
    a, b, c = device_operands(M, N, K)
    r = tm.matmul(a, b, out=c)
    print(f"\ncupy out=: returned object is out: {r is c}; max |C - cupy.matmul| = "
          f"{float(cupy.abs(c - cupy.matmul(a, b)).max()):.2e}")

    # out= with numpy arrays: numpy inputs go to the GPU and the result comes back into `out`.
    a_h, b_h = random_inputs(M, N, K, seed=1)
    c_h = np.empty((M, N), np.float32)
    r = tm.matmul(a_h, b_h, out=c_h)
    print(f"numpy out=: returned object is out: {r is c_h}; max |C - numpy| = {np.abs(c_h - a_h @ b_h).max():.2e}")

    # Two streams, each with its own inputs: the calls return at once and may overlap on the GPU.
    # Inputs are made inside each `with` so every stream orders its own writes before its kernel.
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
    results = []
    for s in streams:
        with s:
            x = cupy.random.uniform(-1, 1, (M, K), dtype=cupy.float32)
            y = cupy.random.uniform(-1, 1, (K, N), dtype=cupy.float32)
            results.append((x, y, tm.matmul(x, y, strategy="register_blocked")))
    for s in streams:
        s.synchronize()  # wait for the work before reading results from another stream
    for i, (x, y, z) in enumerate(results):
        print(f"stream {i}: {'PASSED' if tm.check(z, x, y).passed else 'FAILED'} the check")


def torch_part(M: int, N: int, K: int) -> None:
    try:
        import torch
    except ImportError:
        print("\n[skipped] the torch part: torch is not installed (pip install torch)")
        return
    if not (tm.gpu_available() and torch.cuda.is_available()):
        print("\n[skipped] the torch part: no CUDA device (tm.gpu_available() or torch.cuda.is_available() is False)")
        return
    import cupy

    ta = torch.rand(M, K, device="cuda") * 2 - 1
    tb = torch.rand(K, N, device="cuda") * 2 - 1
    torch.cuda.synchronize()  # torch wrote them on its stream; CuPy's default stream reads them below

    # Zero-copy in: the kernel reads torch's memory (same address), and wraps the result back.
    print(f"\ntorch input seen by CuPy at the same address: {cupy.asarray(ta).data.ptr == ta.data_ptr()}")
    c = tm.matmul(ta, tb)
    tc = torch.as_tensor(c, device="cuda")
    print(f"tm.matmul(torch, torch) -> {type(c).__module__}.{type(c).__name__}; "
          f"torch.as_tensor shares its memory: {tc.data_ptr() == c.data.ptr}")

    # out= a torch tensor, on a torch stream seen by CuPy as its current stream.
    out = torch.empty(M, N, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s), cupy.cuda.Stream.from_external(s):
        r = tm.matmul(ta, tb, out=out)
    s.synchronize()
    ref = (ta.double() @ tb.double()).float()
    print(f"out=torch tensor: returned object is out: {r is out}; "
          f"max |C - float64 torch| = {(out - ref).abs().max().item():.2e}")

    # No autograd: a tensor that requires grad is refused, rather than silently detached.
    try:
        tm.matmul(ta.requires_grad_(), tb)
    except (TypeError, ValueError) as exc:
        print(f"requires_grad input -> {type(exc).__name__}: {exc}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(256, 192, 128), help="N or MxNxK (default 256x192x128)")
    args = p.parse_args(argv)
    M, N, K = args.shape

    out_rules(M, N, K)
    if have_gpu("the CuPy stream and out= part"):
        cupy_part(M, N, K)
    torch_part(M, N, K)


if __name__ == "__main__":
    main()
