"""One float32 product, ours or cuBLAS's, in blocks of back-to-back calls: per block its median
time per call and the wall-clock window it ran in, so that a clock log taken beside it
(nvidia-smi) says at which SM clock and power each implementation ran. Also the process that ncu
profiles (``--blocks 1 --calls 4``).

    PYTHONPATH=. python3 scripts/probe_clock.py --impl ours,cublas --mode tf32 --size 8192 \
        --blocks 6 --calls 40 [--params bm=256,bn=128]
    python3 scripts/probe_clock.py --summary LOG   # LOG: such lines, each prefixed "VARIANT MODE rROUND "
    python3 scripts/probe_clock.py --clocks SMI.csv LOG  # each block's median SM clock and power

SMI.csv: ``nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 100``
taken beside the run (the same host clock).

The summary is a markdown table per (variant, mode): ours' TF/s per block and, per pair of
blocks (ours, then cuBLAS), cuBLAS's median time over ours', and the median of those ratios.
"""

from __future__ import annotations

import argparse
import collections
import re
import statistics
import time


def clock_windows(smi_csv: str, log: str) -> str:
    """Per block of `log` (prefixed or not), the median SM clock and board power nvidia-smi
    sampled inside the block's window (its first 0.1 s left out)."""
    import datetime

    samples = []
    for line in open(smi_csv):
        parts = [p.strip() for p in line.split(",")]
        try:
            when = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            samples.append((when, float(parts[1].split()[0]), float(parts[2].split()[0])))
        except (ValueError, IndexError):
            continue
    rows = []
    for line in open(log):
        m = re.match(r"(.*?)block (\d+) (\w+)\s+([\d.]+)-([\d.]+) median ([\d.]+) ms", line)
        if not m:
            continue
        inside = [x for x in samples if float(m.group(4)) + 0.1 <= x[0] <= float(m.group(5))]
        where = f"sm {statistics.median(x[1] for x in inside):.0f} MHz, power {statistics.median(x[2] for x in inside):.0f} W" \
            if inside else "no samples in its window"
        rows.append(f"{m.group(1)}block {m.group(2)} {m.group(3):6s} {m.group(6)} ms: {where}")
    return "\n".join(rows)


def summarize(path: str) -> str:
    """The table of a log of prefixed probe lines (see the module docstring)."""
    ratios, tfs, ours_ms = collections.defaultdict(list), collections.defaultdict(list), {}
    for line in open(path):
        m = re.match(r"(\S+) (\S+) r(\d+) block \d+ (\w+)\s+\S+ median ([\d.]+) ms\s+([\d.]+) TF/s", line)
        if not m:
            continue
        variant, mode, rnd, impl, ms, tf = m.groups()
        if impl == "ours":
            ours_ms[(variant, mode, rnd)] = float(ms)
            tfs[(variant, mode)].append(float(tf))
        elif (variant, mode, rnd) in ours_ms:
            ratios[(variant, mode)].append(float(ms) / ours_ms[(variant, mode, rnd)])
    rows = ["| variant | mode | ours TF/s (blocks) | x cuBLAS per block pair | median |", "|---|---|---|---|---:|"]
    for (variant, mode), r in sorted(ratios.items()):
        rows.append(f"| {variant} | {mode} | {' '.join(f'{x:.0f}' for x in tfs[(variant, mode)])} | "
                    f"{' '.join(f'{x:.3f}' for x in r)} | {statistics.median(r):.3f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--impl", default="ours,cublas", help="comma list of ours / cublas, alternated per block")
    p.add_argument("--mode", default="tf32", choices=("tf32", "tf32x3", "float64"),
                   help="tf32 / tf32x3: wgmma_tma_tf32 (--params) against cuBLAS TF32 / FP32; float64: "
                        "auto's pick against cuBLAS DGEMM")
    p.add_argument("--size", type=int, default=8192)
    p.add_argument("--blocks", type=int, default=6)
    p.add_argument("--calls", type=int, default=40)
    p.add_argument("--params", default="", help="config params of ours, e.g. bm=256,bn=128")
    p.add_argument("--summary", metavar="LOG", help="print the table of a log of prefixed probe lines, and exit")
    p.add_argument("--clocks", nargs=2, metavar=("SMI_CSV", "LOG"), help="print each block's clock and power, and exit")
    args = p.parse_args(argv)
    if args.summary:
        print(summarize(args.summary))
        return 0
    if args.clocks:
        print(clock_windows(*args.clocks))
        return 0

    import cupy

    import tiled_matmul as tm
    from tiled_matmul.measure import cublas_compute_type, make_inputs

    n = args.size
    a, b, c = make_inputs((n, n, n), "float64" if args.mode == "float64" else "float32", 1, seed=0)[0]
    if args.mode == "float64":
        fns = {"ours": lambda: tm.matmul(a, b, out=c), "cublas": lambda: cupy.matmul(a, b, out=c)}
    else:
        base = {"tf32x3": dict(bm=128, bn=128, stages=4, passes=3), "tf32": dict(bm=256, bn=128, stages=4, passes=1)}
        params = {**base[args.mode], **{kv.split("=")[0]: int(kv.split("=")[1]) for kv in args.params.split(",") if kv}}
        ours = tm.kernel("wgmma_tma_tf32", **params)
        fns = {"ours": lambda: ours(a, b, out=c), "cublas": lambda: cupy.matmul(a, b, out=c)}
    kind = "fp32" if args.mode in ("tf32x3", "float64") else "tf32"
    impls = args.impl.split(",")
    flops = 2.0 * n ** 3
    with cublas_compute_type(kind):
        for f in fns.values():
            f()
        cupy.cuda.Device().synchronize()
        for blk in range(args.blocks):
            name = impls[blk % len(impls)]
            f = fns[name]
            events = [cupy.cuda.Event() for _ in range(args.calls + 1)]
            t0 = time.time()
            events[0].record()
            for i in range(args.calls):
                f()
                events[i + 1].record()
            events[-1].synchronize()
            t1 = time.time()
            ms = sorted(cupy.cuda.get_elapsed_time(events[i], events[i + 1]) for i in range(args.calls))
            med = ms[len(ms) // 2]
            print(f"block {blk} {name:6s} {t0:.3f}-{t1:.3f} median {med:.3f} ms  {flops / med / 1e9:.1f} TF/s "
                  f"(first {ms[0]:.3f}, last-sorted {ms[-1]:.3f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
