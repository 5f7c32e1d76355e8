"""The compute efficiencies that probe_tail_pairs.py's timings show for its candidates, as tuning
database keys (twenty-third session; on the CPU, from the probe's output files).

    PYTHONPATH=. python3 scripts/variants_s23/calibrate_pairs.py FILE... [--only NAME...]

For every candidate and shape: the model's compute term at efficiency 1 (Q x compute, with the
config's own wave factor) over the measured time less the launches, reduction and rounds
(Prediction.efficiency_of's formula, on the compute term whichever term the defaults make the
bound: these tiles' measured memory efficiencies, 0.9-1.15, leave compute the bound). Printed per
shape, then per candidate the geometric mean over the files' shapes and its database key.
"""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import probe_tail_pairs as P  # noqa: E402

from tiled_matmul import costmodel, registry  # noqa: E402

CANDS = {**{k: ("dmma", v) for k, v in P.DMMA.items()}, **{k: ("dmma_tail", v) for k, v in P.TAIL.items()}}


def load(files: list[str]) -> dict[tuple[int, int, int], dict[str, float]]:
    """shape -> {candidate: measured ms} from the probe's final tables (x cuBLAS and cuBLAS's us)."""
    rows: dict = {}
    for f in files:
        lines = Path(f).read_text().splitlines()
        head = [j for j, line in enumerate(lines) if line.startswith("shape")][-1]
        names = re.split(r"\s{2,}", lines[head].strip())[2:]
        for line in lines[head + 1:]:
            parts = line.split()
            if len(parts) < 3:
                continue
            shape = tuple(map(int, parts[0].split("x")))
            cublas_ms = float(parts[1]) * 1e-3
            rows[shape] = {"cublas": cublas_ms, **{n: cublas_ms / float(v) for n, v in zip(names, parts[2:]) if v != "-"}}
    return rows


def main() -> None:
    args = sys.argv[1:]
    only = args[args.index("--only") + 1:] if "--only" in args else list(CANDS)
    files = args[:args.index("--only")] if "--only" in args else args
    rows = load(files)
    keys = {}
    for name in only:
        strat, kw = CANDS[name]
        cfg = registry.get(strat).make_config(**kw)
        effs = []
        for shape, times in rows.items():
            if name not in times:
                continue
            p = costmodel.predict(cfg, *shape, "float64", efficiency=1.0)
            fixed = p.launch_ms + p.reduce_ms + p.rounds_ms
            effs.append(p.wave_factor * p.compute_ms / (times[name] - fixed))
            print(f"{name:12s} {'x'.join(map(str, shape)):18s} {times[name] * 1e3:9.1f} us  Q {p.wave_factor:.2f}  "
                  f"compute efficiency {effs[-1]:.3f}")
        geo = math.exp(sum(map(math.log, effs)) / len(effs))
        keys[costmodel.efficiency_keys(cfg, "float64", "compute")[0]] = round(geo, 4)
        print(f"{name:12s} geometric mean over {len(effs)} shapes: {geo:.3f}")
    print(json.dumps(keys, indent=1))


if __name__ == "__main__":
    main()
