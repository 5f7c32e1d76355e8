"""What the twenty-seventh session's probes share: every candidate checked before it is timed."""
import numpy as np


def check_candidates(fns: dict, extra: dict, c, a, b) -> None:
    """Run each callable of `fns` but the first (cuBLAS) into the NaN-poisoned `c` and check it
    against the float64 product of `a` and `b` (tm.check: normwise and per element); a failing or
    raising one is reported and dropped from `fns`, a passing one gets its error (beside cuBLAS's)
    appended to extra[label]."""
    import tiled_matmul as tm

    M, K = a.shape
    N = b.shape[1]
    for label in list(fns)[1:]:
        c.fill(np.nan)
        try:
            fns[label]()
            rep = tm.check(c, a, b)
            assert rep.passed, rep
        except Exception as e:  # noqa: BLE001 - a probe: report and drop the candidate
            print(f"# {M}x{N}x{K} {label}: {type(e).__name__}: {e}"[:300], flush=True)
            fns.pop(label)
            continue
        extra[label] = extra.get(label, "") + f" err {rep.comp_err:.1e} (cuBLAS {rep.cublas_comp_err:.1e})"
