"""The float64 public suite's picks under the shipped cost model and under a candidate term
(twenty-fourth session, CPU only): costmodel.rank's first pick and dispatch.choose (database
entries first) per shape, and the predicted times of both picks under both models.

    PYTHONPATH=. python3 scripts/variants_s24/cm_suite.py [term] [c]
"""
from __future__ import annotations

import sys

from tiled_matmul import costmodel, dispatch
from tiled_matmul.suite import suite_shapes

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from cm_fit import TERMS  # noqa: E402

ORIG = costmodel.predict


COMPUTE_PATH = False


def patched(term, c):
    import dataclasses

    def predict(cfg, M, N, K, dtype="float32", device=None, efficiencies=None, registers=None, efficiency=None):
        p = ORIG(cfg, M, N, K, dtype, device, efficiencies, registers, efficiency)
        x = c * term(cfg, M, N, K, p) * 1e-3
        if not x:
            return p
        if COMPUTE_PATH:
            fixed = p.launch_ms + p.reduce_ms + p.rounds_ms
            bc = p.wave_factor * p.compute_ms / p.compute_efficiency
            bm = p.wave_factor * p.memory_ms / p.memory_efficiency
            return dataclasses.replace(p, ms=fixed + max(bc + x, bm))
        return dataclasses.replace(p, ms=p.ms + x)
    return predict


def picks(dtype="float64"):
    costmodel.clear_cache()
    dispatch.clear_cache()
    eff = dispatch.measured_efficiencies()
    out = {}
    for cls, (M, N, K) in suite_shapes():
        r = costmodel.rank(M, N, K, dtype, efficiencies=eff)
        ch = dispatch.choose(M, N, K, dtype)
        out[(M, N, K)] = (r[0], ch, {(p.strategy, str(sorted(p.params.items()))): p.ms for p in r})
    return out


def main():
    global COMPUTE_PATH
    args = sys.argv[1:]
    if "--compute" in args:
        args.remove("--compute")
        COMPUTE_PATH = True
    term = args[0] if args else "fillepi2"
    c = float(args[1]) if len(args) > 1 else 0.02
    a = picks()
    costmodel.predict = patched(TERMS[term], c)
    b = picks()
    costmodel.predict = ORIG
    changed = 0
    for s in a:
        (pa, ca, ra), (pb, cb, rb) = a[s], b[s]
        ka = (pa.strategy, str(sorted(pa.params.items())))
        kb = (pb.strategy, str(sorted(pb.params.items())))
        same_model = ka == kb
        same_auto = (ca.strategy, ca.params) == (cb.strategy, cb.params)
        flag = "" if same_model and same_auto else "  <-- CHANGED"
        changed += not (same_model and same_auto)
        print(f"{'x'.join(map(str, s)):18s} auto[{ca.source}] {ca.strategy} {'same' if same_auto else '-> ' + cb.strategy + ' ' + str(cb.params)}; "
              f"model {pa.strategy} {dict(pa.params) if not same_model else ''}{flag}")
        if not same_model:
            print(f"      shipped model: {pa.strategy} {ra[ka]*1e3:.1f} us, {pb.strategy} {ra[kb]*1e3:.1f} us;  "
                  f"new model: {pa.strategy} {rb[ka]*1e3:.1f} us, {pb.strategy} {pb.params} {rb[kb]*1e3:.1f} us")
    print(f"{changed} of {len(a)} suite shapes changed")


if __name__ == "__main__":
    main()
