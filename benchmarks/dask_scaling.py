"""tiled_matmul.dask over 1, 2 (and 4) GPUs, and out of core from host memory.

    PYTHONPATH=. python3 benchmarks/dask_scaling.py [--size 32768] [--chunk 8192] [--gpus 1,2,4]
        [--repeat 3] [--threads 2] [--no-scattered] [--ooc-gib 144 | --no-out-of-core]

Every case runs on ``tiled_matmul.dask.local_gpu_cluster(n)`` (dask-cuda's LocalCUDACluster
where it imports, else one distributed Nanny per GPU; the output says which), float32, strategy
"auto" per block. Input blocks are generated on the workers from per-block seeds (so a float64
reference of sampled rows can be rebuilt from the seeds on a GPU), then persisted before timing.

* ``resident``: size³ with CuPy blocks of `chunk`, replicated to every worker before the clock
  starts (untimed; its time is printed), so the timed graph moves no operand between workers:
  the compute scaling of the same graph on 1, 2 and 4 GPUs.
* ``scattered`` (n >= 2): the same graph on fresh inputs whose blocks each live on one worker (as
  the scheduler placed their generation): the timed run includes the blocks that must cross
  between workers, over distributed's TCP comm (no UCX/NVLink here), measured from the workers'
  transfer logs.
* ``out-of-core`` (one GPU): M = N = `size`, K chosen so that A + B hold `--ooc-gib` GiB of host
  (NumPy) blocks, by default 144 GiB, more than an H200's 139 GiB (the host needs about that
  much RAM free: the 2xH200 machine has 256 GiB); blocks of `--ooc-block` x `--ooc-inner`, each
  step copying its A and B blocks to the GPU. Its rate is compared with the 1-GPU resident one.

Columns: seconds (median of `--repeat` timed runs; the out-of-core case runs once), TF/s
(2·M·N·K / s), speedup and efficiency against 1 GPU of the same case, `read` = bytes the chain
steps read (tiled_matmul.dask.describe_graph), `moved` = bytes that crossed between workers or
from host to GPU during the timed run, `bits` = per-block digests of C equal across GPU counts,
`err` = relative error of sampled rows against a float64 reference. The table is printed last;
with $OUT set it also goes to $OUT/dask_scaling.md and the records to $OUT/dask_scaling.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import traceback
from pathlib import Path

os.environ.setdefault("CUPY_TF32", "0")

import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402

GiB = 2**30


# -- blocks from seeds (run on the workers) ----------------------------------------------------------
def block_seed(base: int, i: int, j: int) -> int:
    return (base * 1_000_003 + i * 65_537 + j) % 2**63


def gen_block(seed: int, shape: tuple[int, int], dtype: str):
    """A block of uniform [-1, 1) values on the current GPU, the same for the same seed."""
    import cupy

    x = cupy.random.default_rng(seed).random(shape, dtype=cupy.float32 if dtype == "float32" else cupy.float64)
    x *= 2
    x -= 1
    return x


def gen_host_block(seed: int, shape: tuple[int, int], dtype: str) -> np.ndarray:
    """gen_block's values, copied into host memory (NumPy)."""
    return gen_block(seed, shape, dtype).get()


def seeded(name: str, shape, chunks, dtype: str, base: int, host: bool):
    """A Dask array of generated blocks: NumPy (host) or CuPy (device) blocks."""
    import dask.array as da
    from dask.highlevelgraph import HighLevelGraph

    chunks = da.core.normalize_chunks(chunks, shape)
    fn = gen_host_block if host else gen_block
    layer = {(name, i, j): (fn, block_seed(base, i, j), (r, c), dtype)
             for i, r in enumerate(chunks[0]) for j, c in enumerate(chunks[1])}
    if host:
        meta = np.empty((0, 0), dtype)
    else:
        import cupy

        meta = cupy.empty((0, 0), dtype)
    return da.Array(HighLevelGraph.from_collections(name, layer, []), name, chunks, meta=meta)


def reference_rows(rows, chunks_a, chunks_b, base_a, base_b, dtype):
    """float64 rows of A @ B rebuilt from the seeds, on the worker's GPU."""
    import cupy

    offs = [np.concatenate([[0], np.cumsum(c)]) for c in (chunks_a[0], chunks_a[1], chunks_b[1])]
    N = int(offs[2][-1])
    out = cupy.zeros((len(rows), N), cupy.float64)
    for k in range(len(chunks_a[1])):
        blocks = {}
        a_rows = []
        for r in rows:
            i = int(np.searchsorted(offs[0], r, side="right")) - 1
            if i not in blocks:
                blocks[i] = gen_block(block_seed(base_a, i, k), (chunks_a[0][i], chunks_a[1][k]), dtype)
            a_rows.append(blocks[i][r - offs[0][i]])
        a64 = cupy.stack(a_rows).astype(cupy.float64)
        del blocks
        for j in range(len(chunks_b[1])):
            b64 = gen_block(block_seed(base_b, k, j), (chunks_b[0][k], chunks_b[1][j]), dtype).astype(cupy.float64)
            out[:, offs[2][j]:offs[2][j + 1]] += a64 @ b64
    return out.get()


def digest(block):
    """An exact, order-free fingerprint of a block's bits (uint64 sums wrap, never round)."""
    import cupy

    xp = cupy.get_array_module(block)
    bits = xp.ascontiguousarray(block).view(xp.uint32 if block.dtype.itemsize == 4 else xp.uint64).ravel()
    w = xp.arange(bits.size, dtype=xp.uint64) * xp.uint64(2654435761) + xp.uint64(1)
    return np.array([[int((bits.astype(xp.uint64) * w).sum())]], dtype=np.uint64)


def warm(shapes, dtype):
    """Compile the block kernels on this worker before the clock starts."""
    import cupy

    for (bm, bk, bn) in shapes:
        tm.matmul(cupy.ones((bm, bk), dtype), cupy.ones((bk, bn), dtype))
    cupy.cuda.Device().synchronize()


def sync_device():
    import cupy

    cupy.cuda.Device().synchronize()


def incoming_bytes(dask_worker=None) -> int:
    """Bytes this worker has received from other workers (its transfer log)."""
    log = getattr(dask_worker, "transfer_incoming_log", None)
    if log is None:
        log = getattr(getattr(dask_worker, "state", None), "transfer_incoming_log", ())
    return int(sum(entry.get("total", 0) for entry in log))


# -- the cases -------------------------------------------------------------------------------------
def block_shapes(A, B):
    return sorted({(bm, bk, bn) for bm in set(A.chunks[0]) for bk in set(A.chunks[1]) for bn in set(B.chunks[1])})


def sample_rows(M: int) -> list[int]:
    return sorted({0, M // 3, M // 2 + 1, M - 1})


def check(client, C, A, B, base_a, base_b, dtype):
    """(relative error of sampled rows, per-block digests of C)."""
    rows = sample_rows(A.shape[0])
    ref = client.submit(reference_rows, rows, A.chunks, B.chunks, base_a, base_b, dtype, pure=False).result()
    got = C[rows].compute()
    got = got.get() if hasattr(got, "get") else got
    err = float(np.linalg.norm(got.astype(np.float64) - ref) / np.linalg.norm(ref))
    nI, nJ = C.numblocks
    digests = C.map_blocks(digest, chunks=((1,) * nI, (1,) * nJ), dtype=np.uint64, meta=np.empty((0, 0), np.uint64)).compute()
    return err, np.asarray(digests).ravel().tolist()


def timed(client, make, repeat: int):
    """Median seconds of `repeat` runs of the graph `make(r)` persisted on the cluster, the bytes
    received between workers during the last run, and that run's persisted result."""
    from distributed import wait

    times, moved, C = [], 0, None
    for r in range(repeat):
        C = None  # release the previous result first
        graph = make(r)
        before = sum(client.run(incoming_bytes).values())
        t0 = time.perf_counter()
        C = graph.persist()
        wait(C)
        client.run(sync_device)  # every step synchronises its stream; this is belt and braces
        times.append(time.perf_counter() - t0)
        moved = sum(client.run(incoming_bytes).values()) - before
    return statistics.median(times), moved, C


def run_cluster(n: int, args, records: list, digests: dict):
    import distributed

    import tiled_matmul.dask as tmd

    size, chunk, dtype = args.size, args.chunk, "float32"
    with tmd.local_gpu_cluster(n, threads_per_worker=args.threads, memory_limit=0) as cluster, \
            distributed.Client(cluster) as client:
        kind = type(cluster).__name__
        print(f"\n== {n} GPU worker(s): {kind}, {args.threads} threads each ==", flush=True)
        cases = [("resident", True)] + ([("scattered", False)] if n > 1 and args.scattered else [])
        for case, replicate in cases:
            base_a, base_b = 1, 2  # the same values in both cases (other keys): the same C
            A = seeded(f"A-{case}", (size, size), chunk, dtype, base_a, host=False)
            B = seeded(f"B-{case}", (size, size), chunk, dtype, base_b, host=False)
            A, B = client.persist([A, B])
            distributed.wait([A, B])
            client.run(warm, block_shapes(A, B), dtype)
            setup = ""
            if replicate and n > 1:
                t0 = time.perf_counter()
                client.replicate(distributed.futures_of(A) + distributed.futures_of(B))
                setup = f"replicated A and B to {n} workers in {time.perf_counter() - t0:.1f} s (untimed)"
                print("  " + setup, flush=True)
            report = tmd.describe_graph(A, B)
            seconds, moved, C = timed(client, lambda r: tmd.matmul(A, B, name=f"C-{case}-{n}-{r}"), args.repeat)
            err, dig = check(client, C, A, B, base_a, base_b, dtype)
            digests.setdefault(case, {})[n] = dig
            rec = dict(case=case, gpus=n, cluster=kind, M=size, N=size, K=size, chunk=f"{chunk}", seconds=seconds,
                       tflops=report.flops / seconds / 1e12, read_bytes=report.bytes_read, moved_bytes=moved,
                       rel_err=err, tolerance=tm.tolerance(dtype, size), note=setup)
            records.append(rec)
            print(f"  {case}: {seconds:.3f} s, {rec['tflops']:.1f} TF/s, moved {moved / GiB:.2f} GiB, "
                  f"err {err:.2e}", flush=True)
            C = A = B = None  # free the GPUs for the next case


def run_out_of_core(args, records: list):
    import distributed

    import tiled_matmul.dask as tmd

    dtype, itemsize = "float32", 4
    M = N = args.size
    bm, bk = args.ooc_block, args.ooc_inner
    K = int(args.ooc_gib * GiB / ((M + N) * itemsize)) // bk * bk + bk  # A + B just over --ooc-gib
    operands = (M + N) * K * itemsize
    host_ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    if operands > 0.85 * host_ram:
        reason = (f"A+B = {operands / GiB:.0f} GiB would not fit this host's {host_ram / GiB:.0f} GiB of RAM "
                  f"(with room to spare); pass a smaller --ooc-gib")
        print(f"\n== out of core: skipped: {reason} ==", flush=True)
        records.append(dict(case="out-of-core", gpus=1, skipped=reason))
        return
    with tmd.local_gpu_cluster(1, threads_per_worker=args.threads, memory_limit=0) as cluster, \
            distributed.Client(cluster) as client:
        limit = client.run(lambda: __import__("cupy").cuda.Device().mem_info[1])
        gpu_bytes = next(iter(limit.values()))
        over = "exceed" if operands > gpu_bytes else "do NOT exceed"
        print(f"\n== out of core, 1 GPU: {M}x{N}x{K}, A+B = {operands / GiB:.1f} GiB of host blocks, which {over} "
              f"the GPU's {gpu_bytes / GiB:.1f} GiB ==", flush=True)
        t0 = time.perf_counter()
        A = seeded("A-ooc", (M, K), (bm, bk), dtype, 5, host=True)
        B = seeded("B-ooc", (K, N), (bk, bm), dtype, 6, host=True)
        A, B = client.persist([A, B])
        distributed.wait([A, B])
        print(f"  generated the host blocks in {time.perf_counter() - t0:.1f} s", flush=True)
        client.run(warm, block_shapes(A, B), dtype)
        report = tmd.describe_graph(A, B)
        print("  " + str(report).replace("\n", "\n  "), flush=True)
        seconds, _, C = timed(client, lambda r: tmd.matmul(A, B, name="C-ooc"), 1)
        err, _ = check(client, C, A, B, 5, 6, dtype)
        records.append(dict(case="out-of-core", gpus=1, cluster=type(cluster).__name__, M=M, N=N, K=K,
                            chunk=f"{bm}x{bk}", seconds=seconds, tflops=report.flops / seconds / 1e12,
                            read_bytes=report.bytes_read, moved_bytes=report.bytes_read + report.output_bytes,
                            rel_err=err, tolerance=tm.tolerance(dtype, K),
                            note=f"A+B {operands / GiB:.1f} GiB {over} one GPU ({gpu_bytes / GiB:.1f} GiB)"))
        print(f"  out of core: {seconds:.1f} s, {records[-1]['tflops']:.1f} TF/s, err {err:.2e}", flush=True)


# -- report ----------------------------------------------------------------------------------------
def table(records: list, digests: dict) -> str:
    one = {r["case"]: r for r in records if r["gpus"] == 1 and "seconds" in r}
    rows = ["| case | GPUs | M×N×K | chunks | s | TF/s | speedup | efficiency | read GiB | moved GiB | bits | err (tol) |",
            "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in records:
        if "error" in r or "skipped" in r:
            why = f"failed: {r['error']}" if "error" in r else f"skipped: {r['skipped']}"
            rows.append(f"| {r['case']} | {r['gpus']} | {why} |||||||||||")
            continue
        base = one.get("resident")
        if r["case"] == "out-of-core":
            speed = f"{r['tflops'] / base['tflops']:.2f}× in-GPU" if base else "-"
            eff = "-"
        elif base:
            s = base["seconds"] / r["seconds"]
            speed, eff = f"{s:.2f}×", f"{100 * s / r['gpus']:.0f}%"
        else:
            speed = eff = "-"
        case_digests = digests.get(r["case"], {})
        ref_digest = digests.get("resident", {}).get(1)
        if r["case"] == "out-of-core":
            bits = "-"
        else:
            bits = "same as 1 GPU" if ref_digest is not None and case_digests.get(r["gpus"]) == ref_digest else \
                ("reference" if r["gpus"] == 1 else "DIFFER")
        ok = "ok" if r["rel_err"] <= r["tolerance"] else "FAIL"
        rows.append(f"| {r['case']} | {r['gpus']} | {r['M']}×{r['N']}×{r['K']} | {r['chunk']} | {r['seconds']:.3f} | "
                    f"{r['tflops']:.1f} | {speed} | {eff} | {r['read_bytes'] / GiB:.1f} | {r['moved_bytes'] / GiB:.1f} | "
                    f"{bits} | {r['rel_err']:.1e} ({r['tolerance']:.0e}) {ok} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=32768, help="M = N = K of the scaling cases (and M = N out of core)")
    p.add_argument("--chunk", type=int, default=8192, help="block edge of the scaling cases")
    p.add_argument("--gpus", default="1,2,4", help="GPU counts to try (those above the machine's are skipped)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--threads", type=int, default=2, help="threads per GPU worker")
    p.add_argument("--no-scattered", dest="scattered", action="store_false")
    p.add_argument("--no-out-of-core", dest="out_of_core", action="store_false")
    p.add_argument("--ooc-gib", type=float, default=144.0, help="GiB of A + B for the out-of-core case")
    p.add_argument("--ooc-block", type=int, default=16384, help="output block edge out of core")
    p.add_argument("--ooc-inner", type=int, default=8192, help="inner block out of core")
    args = p.parse_args(argv)
    if not tm.gpu_available():
        print("dask_scaling: no CUDA GPU (cupy.is_available() is False); nothing to measure")
        return 2
    import cupy
    import dask

    import tiled_matmul.dask as tmd

    # replicas placed before the clock must stay where they are
    dask.config.set({"distributed.scheduler.active-memory-manager.start": False})
    have = cupy.cuda.runtime.getDeviceCount()
    counts = [n for n in (int(x) for x in args.gpus.split(",")) if n <= have]
    print(f"{have} GPU(s): {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}; dask-cuda: "
          f"{tmd.dask_cuda_status()}; sizes: {args.size}³ in {args.chunk} blocks; GPU counts {counts}; "
          f"out of core: {'on, ' + str(args.ooc_gib) + ' GiB' if args.out_of_core else 'off (--no-out-of-core)'}",
          flush=True)
    records, digests = [], {}
    out = os.environ.get("OUT")

    def save() -> str:  # after every case, so a run cut short still leaves its rows
        text = table(records, digests)
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            Path(out, "dask_scaling.md").write_text(text + "\n")
            Path(out, "dask_scaling.json").write_text(json.dumps(dict(records=records, digests=digests), indent=1, default=str))
        return text

    cases = [(run_cluster, n, (n, args, records, digests)) for n in counts]
    if args.out_of_core:
        cases.append((run_out_of_core, 1, (args, records)))
    for run, n, run_args in cases:
        try:
            run(*run_args)
        except Exception as exc:
            traceback.print_exc()
            case = "out-of-core" if run is run_out_of_core else "resident"
            records.append(dict(case=case, gpus=n, error=f"{type(exc).__name__}: {exc}"[:200]))
        save()
    print("\n" + save())
    if out:
        print(f"wrote {out}/dask_scaling.md and dask_scaling.json")
    failed = any("error" in r or ("rel_err" in r and r["rel_err"] > r["tolerance"]) for r in records)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
