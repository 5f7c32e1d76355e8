import numpy as np, cupy as cp, tiled_matmul as tm
rng = np.random.default_rng(0)
def err(c, a, b):
    ref = a.astype(np.float64) @ b.astype(np.float64); return np.linalg.norm(c - ref) / np.linalg.norm(ref)
for case in ["tiny+sub", "tiny_no_sub", "nan"]:
    a = (1e-36 * rng.uniform(-1, 1, (65, 40))).astype(np.float32)
    if case == "tiny_no_sub": a = np.where(np.abs(a) < 1.2e-38, 1e-37, a).astype(np.float32)
    b = (1e30 * rng.uniform(-1, 1, (40, 33))).astype(np.float32)
    if case == "nan":
        a = rng.uniform(-1, 1, (65, 40)).astype(np.float32); b = rng.uniform(-1, 1, (40, 33)).astype(np.float32)
        a[3, 5] = np.float32(np.nan)
    for name, p in [("tensor_core", {}), ("tensor_core", dict(bk=32, wm=32, wn=64)), ("wgmma", {}), ("register_blocked", {})]:
        c = tm.matmul(cp.asarray(a), cp.asarray(b), name, **p).get()
        if case == "nan":
            print(case, name, p, "nan rows ok:", bool(np.isnan(c[3]).all()), "others finite:", bool(np.isfinite(np.delete(c, 3, 0)).all()))
        else:
            print(case, name, p, f"{err(c, a, b):.2e}")
