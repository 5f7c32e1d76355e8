"""`strategy="auto"`: which strategy and config run an M x N x K product.

:func:`choose` looks the shape's bucket (:func:`tiled_matmul.tunedb.bucket`) up in the user's
tuning database, then in the databases shipped for this GPU, and otherwise asks the fallback of
the dispatch mode (:func:`get_mode`): ``"heuristic"``, :func:`tiled_matmul.heuristic.recommend`;
``"model"``, the cost model's fastest candidate (:func:`tiled_matmul.costmodel.rank`, with the
efficiencies the tuner measured, :func:`measured_efficiencies`); ``"auto"`` (the default), the
model for the dtypes of :data:`MODEL_DTYPES` and the heuristic for the others, except where
:data:`MODEL_TILES` hands one of the heuristic's picks to the model (float32's mid-size tiles,
and :data:`MODEL_SMALL` its small skinny ones) or :data:`MODEL_CONFIGS` the choice of its config
(float32's gemv_xb).
The fallback's picks on the wgmma rungs take a tile no taller than the output (:func:`narrowed`),
a float32 x·B with 17-64 rows leaves the GEMV chunks and the 128-row TMA tiles for those or for
64 x 128 TMA tiles (:func:`xb_choice`), and a float32 A·x with a few tens of columns is run as its
transpose (:func:`transposed_choice`). :func:`fallback_choice` is that whole fallback.
The mode is ``TILED_MATMUL_DISPATCH`` (read at import) or what :func:`set_mode` set. Both answer
for a precision request (:mod:`tiled_matmul.precision`): entries and picks are kept to the modes
the request allows for the shape (for "auto", tf32x3 and ieee from K = TF32X3_MIN_K, ieee below).
Choices are cached in-process per (device, bucket) for database entries and per exact shape for
the fallback's picks, and, through :func:`for_shape`, what is built from them per
exact shape, so after the first call of a shape the dispatch is one dict lookup. Saving to a
database in this process (:func:`tiled_matmul.tunedb.save_entries`) invalidates both caches;
call :func:`clear_cache` after changing ``TILED_MATMUL_TUNE_DB`` or editing a file from outside.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

import os
from math import lcm

from . import costmodel, registry, tunedb
from .configs import cdiv
from .device import DeviceLimits, device_limits
from .dtypes import DType, as_dtype
from .heuristic import AUTO_CHAIN_K, GEMV_MAX, GEMV_MIN_K, plain_pick, recommend
from .precision import modes_for
from .tunedb import TuneDBWarning, bucket, device_id, entries_for, read_db

T = TypeVar("T")


@dataclass(frozen=True)
class Choice:
    """What `auto` runs for a shape, and where that came from."""

    strategy: str
    params: dict = field(default_factory=dict, hash=False, compare=True)
    source: str = "heuristic"  # "user-db" | "shipped-db" | "heuristic" | "model"
    bucket: str = ""
    entry: "dict | None" = field(default=None, hash=False, compare=False)
    #: where `auto` computes a plain 2-D call of this shape as its transpose (C^T = B^T A^T, both
    #: read in place column-major, then C^T copied into C): the choice for that N x M x K product
    #: (:func:`transposed_choice`); batched, epilogue and layout calls run the choice above
    transposed: "Choice | None" = field(default=None, hash=False, compare=False)
    #: the (strategy, params) the fallback had picked where :func:`xb_choice` replaced it
    moved_from: "tuple[str, dict] | None" = field(default=None, hash=False, compare=False)


#: parsed files, keyed by path, with the (mtime_ns, size) they were read at
_files: dict[str, tuple[tuple[int, int], dict]] = {}
_warned: set = set()


def _load_cached(path: Path) -> dict:
    try:
        st = path.stat()
    except OSError:
        return tunedb.read_db(path, warn=False)  # a missing file reads as an empty database
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _files.get(str(path))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = read_db(path)
    for w in caught:  # warn once per file and problem, not on every re-read
        if (str(path), str(w.message)) not in _warned:
            _warned.add((str(path), str(w.message)))
            warnings.warn(w.message, TuneDBWarning, stacklevel=4)
    _files[str(path)] = (stamp, doc)
    return doc


def _usable(entry: Mapping, where: str, key: str, dt: DType, modes: tuple[str, ...]) -> bool:
    """True when the entry's strategy and params exist in this registry, validate, and compute
    in one of `modes`."""
    try:
        strategy = registry.get(entry["strategy"])
        if where == "shipped-db" and not strategy.builtin:
            return False  # a user strategy that happens to share a shipped entry's name
        cfg = strategy.make_config(**entry.get("params", {}))
        if cfg.precision not in modes:
            return False  # tuned for another precision (or for K beyond the request's rule)
        cfg.validate(dtype=dt)
        return True
    except (ValueError, TypeError) as exc:
        tag = (where, key, entry.get("strategy"))
        if tag not in _warned:
            _warned.add(tag)
            warnings.warn(f"tiled-matmul: ignoring {where} entry {key} ({exc})", TuneDBWarning, stacklevel=4)
        return False


def lookup_entry(M: int, N: int, K: int, dtype: Any = "float32", device: Any = None,
                 precision: str = "auto") -> "tuple[str, dict] | None":
    """(source, entry) of the database entry for this shape's bucket under the precision request
    `precision`, user database first."""
    dt = as_dtype(dtype)
    dev = device_id(device)
    key = bucket(M, N, K, dt, precision)
    modes = modes_for(precision, dt, K)
    entry = entries_for(_load_cached(tunedb.user_db_path()), dev).get(key)
    if entry is not None and _usable(entry, "user-db", key, dt, modes):
        return "user-db", entry
    for p in tunedb.shipped_db_paths():
        entry = entries_for(_load_cached(p), dev, match_package=False).get(key)
        if entry is not None and _usable(entry, "shipped-db", key, dt, modes):
            return "shipped-db", entry
    return None


#: what `auto` falls back to without a tuned entry: per dtype ("auto"), the hand heuristic, or the
#: cost model
MODES = ("auto", "heuristic", "model")
#: the dtypes whose fallback is the cost model in mode "auto". Against the tuner's measured best
#: of every candidate on the bucket shapes of the first H100 tuning (2026-11-22), the model picked
#: the fastest rung on 23 of 27 float64 shapes where the heuristic picked it on 15 (its misses are
#: near-ties: 16384x16384x16, 8192x8192x1, and split_k against gemv_xb at M = 32; the heuristic's
#: included SIMT split_k for 1024^3, where dmma runs 2x faster); on float32 the model picked the
#: fastest rung on 18 of 24 and the heuristic, built from float32 measurements, on 19, so float32
#: keeps the heuristic. Entries have been dropped or retuned since (the database's own notes);
#: tests/test_costmodel.py::test_model_against_the_shipped_database checks the counts on what
#: remains (float64: the model 14 of 20, the heuristic 12).
MODEL_DTYPES: tuple[str, ...] = ("float64",)
#: per dtype outside MODEL_DTYPES: the heuristic's picks that the cost model replaces in mode
#: "auto", and the rungs it chooses among instead, for outputs under one wave of 128 x 128 tiles
#: and wider than heuristic.GEMV_MAX both ways, under a request that allows tf32x3. There
#: float32's heuristic gives wgmma's 64-row tiles or wgmma_split_k's 64 x 64 one; the model's pick
#: among the three wgmma rungs (128-row tiles, TMA, other slice counts) ran at 1.03 and 1.09x
#: cuBLAS FP32 where the heuristic's ran at 0.86 and 0.97 (geometric means, H100, 102 random
#: shapes no study had used, M and N over 64: scripts/gpu_s24e.sh; 599x361x689 0.19 -> 1.08,
#: 727x717x7276 0.58 -> 0.99; 5 of the 102 lost more than 5%), and at 1.18x against 1.10 on 47
#: with 9 <= min(M, N) <= 64 (scripts/gpu_s24j.sh; 22x9393x9661 0.58 -> 1.09; 2 lost more than
#: 5%, 13126x15x760 1.04 -> 0.93). Elsewhere the model lost to the heuristic on float32 (its TMA
#: picks from 0.7 of a wave, skinny and tiny shapes: scripts/gpu_s24d.sh) and on float16 and
#: bfloat16 everywhere (scripts/gpu_s24h.sh).
MODEL_TILES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "float32": (("wgmma", "wgmma_split_k"), ("wgmma", "wgmma_split_k", "wgmma_tma_tf32")),
}
#: per dtype outside MODEL_DTYPES: the rungs whose configs, where the heuristic picks the rung in
#: mode "auto", the cost model chooses among (the rung kept). float32's gemv_xb table gives one
#: config per power of two of M, built on wide B; on narrow or short ones its single K group of
#: 1024 columns idles most of the block (6x45x6043 0.43x cuBLAS FP32). H100, x cuBLAS FP32, x·B
#: with M 1-8 where the two picks differ: 0.83 -> 1.38 on the 24 shapes that set the rule
#: (scripts/gpu_s28b.sh; 6x37x151 0.22 -> 1.44, 8x152x44991 0.31 -> 1.66), 0.81 -> 1.41 on 24
#: held out (gpu_s28c.sh, seed 2804; lowest 0.24 -> 0.78). The model's A·x picks for gemv_ax lost
#: to its table (1.47 -> 1.31 over 11, gpu_s28b.sh), so gemv_ax keeps it
MODEL_CONFIGS: dict[str, tuple[str, ...]] = {"float32": ("gemv_xb",)}
#: per dtype outside MODEL_DTYPES: the heuristic's picks that the cost model replaces, in mode
#: "auto" under a request that allows tf32x3 (as measured), among every rung, on small skinny
#: outputs: :func:`choose`'s pick (the general path runs it where it takes the call's features;
#: plain_choice, for the others, keeps the heuristic's). SMALL_SKINNY: the
#: thin side of C in that range, K at least heuristic.GEMV_MIN_K; such products get warp_tiled's
#: 32 x 32 tile, one block walking K per tile, where the GEMV rungs cover the thin side in a few
#: chunks). H100, x cuBLAS FP32: 0.98 -> 1.33 geometric mean on the 15 shapes that set the rule
#: (scripts/gpu_s28p.sh; 85x25x247 0.77 -> 1.30, 62x47x216 0.83 -> 1.40), 0.99 -> 1.33 on 16 held
#: out (gpu_s28q.sh; lowest 0.79 -> 0.91). The two x·B losses were gemv_xb_tma picks over 47 and
#: 58 rows (47x1505x162 1.13 -> 1.01, 58x834x131 1.12 -> 0.91), whose chunks re-read a wide B:
#: over SMALL_XB_TMA_ROWS rows such a pick gives way to the heuristic's (set after those runs;
#: of the shapes timed it also gave back 51x205x183 1.11 -> 0.99)
MODEL_SMALL: dict[str, tuple[str, ...]] = {"float32": ("warp_tiled",)}
SMALL_SKINNY = (GEMV_MAX + 1, 64)
SMALL_XB_TMA_ROWS = 32
#: ... and where such a gemv_xb_tma pick has a K under SMALL_XB_SHORT_K (its ring of 128-row
#: stages barely fills), and at most SMALL_XB_TMA_ROWS rows or a B of at most SMALL_XB_NARROW_N
#: columns, the model's gemv_xb config runs instead (which reads B by address, in K groups). H100,
#: x cuBLAS FP32, small skinny x·B whose first model candidate is gemv_xb_tma, K 131-255: 1.147 ->
#: 1.397 on the 16 that set the rule (scripts/gpu_s29f.sh, seed 2903), 1.349 -> 1.594 on 16 held
#: out (scripts/gpu_s30a.sh, seed 2904: 13 moved, 11 faster, 26x94x148 16% slower); the model's
#: gemv_xb configs lose 3-5x on wider Bs over 32 rows (37x1731, 45x2718), which keep warp_tiled
SMALL_XB_SHORT_K = 256
SMALL_XB_NARROW_N = 512
#: the rungs whose tile height bm is wgmma's n (C^T = B^T A^T per warpgroup: one m64 x n{bm} x k8
#: instruction covers the tile's rows), so a tile taller than the output spends tensor-core work,
#: shared memory and registers on padding rows. `auto`'s picks on them (heuristic and model, not
#: database entries) take the output's height instead, rounded up to what the config allows
#: (:func:`narrowed`); the grid does not change (one tile row either way). H100, x cuBLAS FP32
#: (scripts/variants_s26/probe_narrow.py): 17x4096x12617 0.75 -> 1.08 (bm 64 -> 24),
#: 40x8192x8192 1.18 -> 1.41, 48x4096x8192 1.20 -> 1.41, 31x12329x5807 1.07 -> 1.16
NARROW_RUNGS: tuple[str, ...] = ("wgmma", "wgmma_split_k")
#: the narrowed heights `auto` uses (a shorter output takes 24 rows): 24-48 run on the H100 in
#: both operand layouts (scripts/variants_s26/probe_narrow.py), 56-128 on the split-K rung's
#: 128-row tiles (scripts/variants_s27/probe_wide.py, x cuBLAS FP32: 84x4570x1029 0.75 -> 0.90
#: at bm 88, 72x8192x8192 1.22 -> 1.74, 100x6000x6000 1.23 -> 1.38, 80x3000x9000 1.13 -> 1.46)
NARROW_HEIGHTS = (24, 128)
#: the highest tile a pick for the general path (batches, epilogues, other layouts:
#: :func:`plain_choice`) is cut to: the 56-128-row cuts compile with those extras
#: (tests/test_narrow.py) but have not run on a GPU with them
PLAIN_NARROW_MAX = 48
#: the tile heights `auto` narrows from: the rungs' 64- and 128-row tiles. wgmma's search space
#: also holds 96-120-row tiles, heights of their own that the cost model picks as they are
NARROW_FROM = (64, 128)
#: whether `auto` narrows those picks (a switch for probes that time both ways)
NARROW_TILES = True
#: float32 x·B products (M < N, tf32x3 allowed, Hopper, no database entry) with XB_NARROW_ROWS
#: rows whose pick is a wgmma rung, wgmma_tma_tf32, or gemv_xb_tma's chunks over a B of at least
#: XB_CHUNKS_MAX_STREAM elements, run the cost model's fastest config of :data:`NARROW_RUNGS`
#: instead, narrowed to the output (:func:`xb_choice`). The chunks were set against 64-row tiles;
#: wgmma_tma_tf32's tile is at least 64 rows high and has no split-K. H100, x cuBLAS FP32
#: (scripts/variants_s27/probe_xb.py, 22 shapes): 28x19244x4044 0.89 (chunks) -> 1.01,
#: 17x12228x3936 1.27 -> 1.80, 32x12580x2156 1.13 -> 1.36, 23x4264x7284 0.79 -> 0.93; on 4.4 M
#: elements (18x2268x1956) the chunks kept the lead, 1.67 against 1.38, and at 2^24 (32x4096x4096,
#: gemv_xb_tma's one-pass 32-column blocks) the two tied at 1.38
XB_NARROW_ROWS = (17, 32)
XB_CHUNKS_MAX_STREAM = 2**24
#: float32 x·B products with XB_TMA64_ROWS rows (as above) whose rows of B are whole 16-byte
#: vectors run wgmma_tma_tf32 with XB_TMA64's 64 x 128 tiles where its pick is wgmma_tma_tf32, or
#: where rows of A are whole vectors too, K is at most heuristic.AUTO_CHAIN_K and B is at least
#: XB_TMA64_MIN_WAVE of a wave of 128-column tiles wide. The pick had been 128 x 128 (half or more
#: padding), or, under a wave, wgmma's cp.async 64 x 128 tiles. H100 (probe_xb.py): 48x18708x8020
#: 0.71 -> 1.16x cuBLAS, 56x20000x6000 0.71 -> 1.15, 47x26532x1168 1.03 -> 1.51 (128 x 128 before),
#: 63x16056x2028 1.20 -> 1.50, 51x15280x5196 1.13 -> 1.58 (wgmma before); held out (probe_check.py
#: --seed 2702): 43x24724x8348 0.85 -> 1.38, 42x22756x3026 0.93 -> 1.41. With 17-32 rows the
#: narrowed wgmma rungs beat these tiles on 4 of 4 wide B, and B 64 tiles wide (64x8192x8192) ran
#: 0.94 against split-K's 1.16. Where rows of B are not whole vectors, the tensor map needs a
#: padded copy of B: wgmma_tma_tf32's picks there go to the model's narrowed wgmma pick instead
#: (gpu_s27c.sh, 6 of 6: 57x20581x5252 0.57 -> 1.03, 40x24001x3000 0.63 -> 1.19, 48x18707x2051
#: 0.64 -> 1.10); with only A's rows ragged (a copy of M x K) the two tied (37x17004x1031 1.26
#: against 1.31, 53x16900x6001 1.08 against 1.02), and the TMA tiles stay
XB_TMA64_ROWS = (33, 64)
XB_TMA64_MIN_WAVE = 0.9
XB_TMA64: dict[str, int] = {"bm": 64, "stages": 8}
#: float32 A·x products with AX_TRANSPOSED[0] <= N <= AX_TRANSPOSED[1] columns (N < M, A of at least
#: AX_TRANSPOSED_MIN_STREAM elements, tf32x3 allowed, no database entry) run as their transpose:
#: C^T = B^T A^T on the wgmma rungs, whose n (the tile height) then covers the N columns and whose
#: m the rows of A, both operands read in place as column-major, C^T copied into C (an M x N copy,
#: ~1% of these products). Their own picks gave the N columns wgmma's m, 64 wide. H100, x cuBLAS
#: FP32 (probe_narrow.py): 16337x20x13807 0.69 -> 0.99, 4096x24x16384 0.88 -> 1.17, 8192x32x4096
#: 0.95 -> 1.14, 8192x48x8192 1.18 -> 1.32. From 49 columns the tile stays 64 high, and the
#: orientation alone still won: 8192x64x8192 1.18 -> 1.20, 11046x49x8470 0.82 -> 0.85,
#: 11472x59x6409 1.12 -> 1.18 (probe_heldout.py --seed 2601, held-out shapes).
#: Below 17 columns gemv_ax's chunks run (heuristic.AX_CHUNK_MAX). The transposed call goes through
#: the general path's kept plan and a copy kernel (tens of microseconds of host work), so A must
#: hold 2^24 elements (64 MiB, 25 us of streaming at a copy's rate) for the GPU to stay ahead
AX_TRANSPOSED: "tuple[int, int] | None" = (17, 64)
AX_TRANSPOSED_MIN_STREAM = 2**24
#: the most columns whose transposed tile is cut to them: from 49 it stays 64 high. At 56 rows
#: with both operands column-major, 4 of 6 held-out A·x lost 3.5-6% (17020x55x3464 1.22 -> 1.18x
#: cuBLAS, 11449x51x2248 0.91 -> 0.86; probe_check.py --set heights --seed 2704), while x·B with
#: 49-56 rows gained on 56-row tiles (55x12460x927 0.98 -> 1.07)
AX_NARROW_MAX = 48
#: float32 A·x products with AX_TRANSPOSED_WIDE[0] <= N <= AX_TRANSPOSED_WIDE[1] columns (the other
#: conditions of AX_TRANSPOSED) run as their transpose where the fallback's own pick is
#: wgmma_tma_tf32 and A's rows are not whole 16-byte vectors (K % 4: that rung reads A from a
#: padded copy, a second pass over the large operand), on the model's pick for the transpose, its
#: tile not cut. H100, x cuBLAS FP32 (probe_wide.py --random, scripts/gpu_s28a.sh and gpu_s28e.sh):
#: 18 of 18 such shapes gained, 20619x100x14745 0.91 -> 1.55, 19333x88x14273 0.97 -> 1.63,
#: 20414x122x1137 0.94 -> 0.98. With K % 4 == 0 the TMA tiles read A in place and 3 of 4 lost
#: (12330x123x3352 1.54 -> 1.11, 16384x120x4096 2.04 -> 1.49); where the own pick is the split-K
#: rung the transpose gained 1-6% or lost (5569x77x1320 0.86 -> 0.79: gpu_s27g.sh): left as picked
AX_TRANSPOSED_WIDE: "tuple[int, int] | None" = (65, 128)
#: environment variable naming the dispatch mode
MODE_ENV = "TILED_MATMUL_DISPATCH"


def _mode_from_env() -> str:
    value = os.environ.get(MODE_ENV, "").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"{MODE_ENV}={os.environ[MODE_ENV]!r}: must be one of {', '.join(MODES)}")
    return value


_mode = _mode_from_env()


def get_mode() -> str:
    """The dispatch mode: what `auto` falls back to where no tuned entry covers the shape."""
    return _mode


def set_mode(mode: "str | None") -> str:
    """Set the dispatch mode ("auto", "heuristic" or "model"; None: back to the environment's);
    returns the previous one. Clears the cached choices.

    >>> previous = set_mode("model"); set_mode(previous)
    'model'
    """
    global _mode
    if mode is not None and mode not in MODES:
        raise ValueError(f"dispatch mode must be one of {', '.join(map(repr, MODES))}; got {mode!r}")
    previous = _mode
    _mode = _mode_from_env() if mode is None else mode
    clear_cache()
    return previous


def measured_efficiencies(device: Any = None) -> dict[str, float]:
    """The cost model's efficiencies the tuner measured on this GPU: the shipped databases', then
    the user database's over them (cached with the parsed files)."""
    dev = device_id(device)
    out: dict[str, float] = {}
    for p in tunedb.shipped_db_paths():
        out.update(tunedb.efficiency_for(_load_cached(p), dev, match_package=False))
    out.update(tunedb.efficiency_for(_load_cached(tunedb.user_db_path()), dev))
    return out


def model_choice(M: int, N: int, K: int, dtype: Any = "float32", device: Any = None,
                 precision: str = "auto", strategies: "tuple[str, ...] | None" = None) -> costmodel.Prediction:
    """The cost model's fastest candidate for the shape on `device` (among the named strategies'
    configs, when given), with the measured efficiencies (cached per shape by
    :func:`tiled_matmul.costmodel.best`)."""
    return costmodel.best(M, N, K, dtype, precision, _limits(device), measured_efficiencies(device), strategies)


def _model_tiles(M: int, N: int, K: int, dt: DType, precision: str, name: str, sms: int) -> "tuple[str, ...] | None":
    """The rungs the cost model chooses among, in mode "auto", where the heuristic's pick `name`
    for a dtype outside MODEL_DTYPES is one it overrides (:data:`MODEL_CONFIGS`: that rung's
    configs; :data:`MODEL_TILES`: an output under one wave of 128 x 128 tiles on `sms` SMs, wider
    than heuristic.GEMV_MAX both ways), else None."""
    if _mode != "auto":
        return None
    if name in MODEL_CONFIGS.get(str(dt), ()):
        return (name,)
    rule = MODEL_TILES.get(str(dt))
    if rule is None or name not in rule[0] or min(M, N) <= GEMV_MAX:
        return None
    if cdiv(M, 128) * cdiv(N, 128) >= sms:
        return None
    if "tf32x3" not in modes_for(precision, dt, K):
        return None
    return rule[1]


def _model_override(M: int, N: int, K: int, dt: DType, device: Any, precision: str, name: str,
                    needed: "frozenset[str]" = frozenset()) -> "costmodel.Prediction | None":
    """The cost model's pick that replaces the heuristic's pick `name` where :data:`MODEL_TILES`
    or :data:`MODEL_CONFIGS` applies (:func:`_model_tiles`), among its rungs whose configs take
    every feature in `needed`, or for :func:`choose` (nothing `needed`) where :data:`MODEL_SMALL`
    applies, among every rung; None where the heuristic's pick stands."""
    if (not needed and _mode == "auto" and name in MODEL_SMALL.get(str(dt), ())
            and SMALL_SKINNY[0] <= min(M, N) <= SMALL_SKINNY[1] and K >= GEMV_MIN_K
            and "tf32x3" in modes_for(precision, dt, K)):
        best = model_choice(M, N, K, dt, device, precision)
        if best.strategy == "gemv_xb_tma":
            # a short K barely fills its ring: gemv_xb's K groups, except over many rows of a wide B
            if K < SMALL_XB_SHORT_K and (M <= SMALL_XB_TMA_ROWS or N <= SMALL_XB_NARROW_N):
                return model_choice(M, N, K, dt, device, precision, ("gemv_xb",))
            # its chunks over more than SMALL_XB_TMA_ROWS rows re-read a wide B per chunk
            if M > SMALL_XB_TMA_ROWS:
                return None
        return best
    among = _model_tiles(M, N, K, dt, precision, name, _sm_count(device))
    among = tuple(n for n in among or () if needed <= registry.get(n).default.extras())
    return model_choice(M, N, K, dt, device, precision, among) if among else None


def xb_choice(M: int, N: int, K: int, dt: DType, device: Any, precision: str, name: str,
              params: dict) -> "tuple[str, dict] | None":
    """(strategy, params) for a float32 x·B with 17-64 rows in mode "auto" where the fallback's
    pick (`name`, `params`) gives way (:data:`XB_NARROW_ROWS`: the model's fastest of the
    narrowable wgmma rungs; :data:`XB_TMA64_ROWS`: wgmma_tma_tf32 on 64 x 128 tiles, or that
    model pick where B's rows are ragged); else None. The caller narrows the result."""
    if (_mode != "auto" or str(dt) != "float32" or not M < N
            or "tf32x3" not in modes_for(precision, dt, K) or not device_id(device).hopper):
        return None
    tensor = name in NARROW_RUNGS or (name == "wgmma_tma_tf32" and params.get("passes", 3) == 3)
    if XB_NARROW_ROWS[0] <= M <= XB_NARROW_ROWS[1]:
        to_model = tensor or (name == "gemv_xb_tma" and N * K >= XB_CHUNKS_MAX_STREAM)
    elif XB_TMA64_ROWS[0] <= M <= XB_TMA64_ROWS[1] and tensor:
        wide = K % 4 == 0 and K <= AUTO_CHAIN_K and cdiv(N, 128) >= XB_TMA64_MIN_WAVE * _sm_count(device)
        if N % 4 == 0 and (name == "wgmma_tma_tf32" or wide):
            return "wgmma_tma_tf32", dict(XB_TMA64)
        # rows of B off 16 bytes: the TMA rung would copy B first
        to_model = name == "wgmma_tma_tf32"
    else:
        return None
    if not to_model:
        return None
    best = model_choice(M, N, K, dt, device, precision, NARROW_RUNGS)
    return best.strategy, _own_params(best)


def narrowed(name: str, params: dict, M: int, device: Any = None, top: "int | None" = None) -> dict:
    """`params` of the rung `name` with the tile height bm lowered to the output's M rounded up to
    a multiple of 8 (wgmma's n step) and of the config's rows per copy pass, and at least
    NARROW_HEIGHTS[0], where `name` is one of :data:`NARROW_RUNGS`, its bm is one of
    :data:`NARROW_FROM` and the new one is at most NARROW_HEIGHTS[1] (or `top`), under its bm and
    a valid config; else `params` as given.

    >>> narrowed("wgmma_split_k", {"split_k": 2}, 40)
    {'split_k': 2, 'bm': 40}
    >>> narrowed("wgmma", {"bm": 64, "bn": 64, "stages": 4, "min_blocks": 2}, 17)["bm"]
    24
    >>> narrowed("wgmma_split_k", {"bm": 128, "bn": 128, "stages": 3}, 84)["bm"]
    88
    >>> narrowed("wgmma", {}, 300), narrowed("wgmma", {}, 57), narrowed("gemv_xb", {"mt": 8}, 3)
    ({}, {'bm': 64}, {'mt': 8})
    >>> narrowed("wgmma", {"bm": 96, "stages": 4}, 80)   # a height of its own: left as picked
    {'bm': 96, 'stages': 4}
    """
    if not NARROW_TILES or name not in NARROW_RUNGS:
        return params
    entry = registry.get(name)
    cfg = entry.make_config(**params)
    if cfg.bm not in NARROW_FROM:
        return params
    step = lcm(8, cfg.threads // cfg.BK)
    bm = cdiv(max(M, NARROW_HEIGHTS[0]), step) * step
    if bm >= cfg.bm or bm > (NARROW_HEIGHTS[1] if top is None else top):
        return params
    new = dict(params, bm=bm)
    return new if entry.make_config(**new).is_valid(_limits(device)) else params


def transposed_choice(M: int, N: int, K: int, dtype: Any = "float32", device: Any = None,
                      precision: str = "auto", own: "Choice | None" = None) -> "Choice | None":
    """The choice for the N x M x K product B^T A^T where `auto` computes this A·x product as its
    transpose (:data:`AX_TRANSPOSED`, and :data:`AX_TRANSPOSED_WIDE` where this product's own
    pick would be wgmma_tma_tf32 on a padded copy of A): the cost model's fastest config
    of the rungs of :data:`NARROW_RUNGS` for that product, narrowed to its N rows up to
    :data:`AX_NARROW_MAX`, among those that read both operands column-major in place. None
    elsewhere, and where a database entry serves the shape. `own`: this product's
    :func:`fallback_choice` where the caller has it (:func:`choose`), else made here if needed."""
    dt = as_dtype(dtype)
    wide = AX_TRANSPOSED_WIDE is not None and AX_TRANSPOSED_WIDE[0] <= N <= AX_TRANSPOSED_WIDE[1]
    if (AX_TRANSPOSED is None or _mode != "auto" or str(dt) != "float32" or not N < M
            or not (AX_TRANSPOSED[0] <= N <= AX_TRANSPOSED[1] or wide) or M * K < AX_TRANSPOSED_MIN_STREAM
            or "tf32x3" not in modes_for(precision, dt, K)):
        return None
    dev = device_id(device)
    if not dev.hopper or lookup_entry(M, N, K, dt, dev, precision) is not None:
        return None
    if wide and (K % 4 == 0 or (own or fallback_choice(M, N, K, dt, device, precision)).strategy != "wgmma_tma_tf32"):
        return None
    best = model_choice(N, M, K, dt, device, precision, NARROW_RUNGS)
    params = narrowed(best.strategy, _own_params(best), N, device, AX_NARROW_MAX)
    if (True, True) not in registry.get(best.strategy).make_config(**params).layouts():
        return None
    return Choice(best.strategy, params, "model", bucket(N, M, K, dt, precision))


def plain_choice(M: int, N: int, K: int, dtype: Any, device: Any, mode: str,
                 needed: "frozenset[str]") -> tuple[str, dict]:
    """(strategy, params) `auto` runs for a call whose first pick lacks a feature the call needs
    (`needed`: batches, an epilogue, other layouts or out_dtype, execute.extras_needed), computing
    in `mode`: :func:`tiled_matmul.heuristic.plain_pick` (the cp.async rungs' pick), or where
    :data:`MODEL_TILES` hands that pick to the cost model (dispatch mode "auto"), the model's
    fastest among those of its rungs whose configs take every feature in `needed`. Cached per
    shape with :func:`choose`'s picks (the model's ranking costs ~0.2 ms; the call that needs this
    runs every time)."""
    if tunedb.generation != _seen_generation:
        clear_cache()
    dt = as_dtype(dtype)
    key = ("plain", device_id(device), str(dt), mode, frozenset(needed), M, N, K)
    hit = _choices.get(key)
    if hit is None:
        name, params = plain_pick(M, N, K, dt, _sm_count(device), mode)
        source = "heuristic"
        best = _model_override(M, N, K, dt, device, mode, name, frozenset(needed))
        if best is not None:
            name, params, source = best.strategy, _own_params(best), "model"
        params = narrowed(name, dict(params or {}), M, device, PLAIN_NARROW_MAX)
        if len(_choices) >= _MAX_SHAPES:
            _choices.clear()
        hit = _choices[key] = Choice(name, params, source)
    return hit.strategy, dict(hit.params)


def _limits(device: Any) -> DeviceLimits:
    """The limits of `device`; a DeviceId (a database identity, not a GPU) reads the current device's."""
    return device_limits(None if isinstance(device, tunedb.DeviceId) else device)


#: (device, bucket, modes) -> Choice, and (device, dtype, precision, M, N, K) -> what
#: :func:`for_shape`'s caller built from the choice
_choices: dict[tuple, Choice] = {}
_per_shape: dict[tuple, Any] = {}
_MAX_SHAPES = 4096
#: the database generation the caches were filled at
_seen_generation = 0
#: advanced by every :func:`clear_cache`: what was planned from earlier choices is stale
epoch = 0


def clear_cache() -> None:
    """Forget every cached auto choice and parsed file (after editing a database or the env var)."""
    global _seen_generation, epoch
    epoch += 1
    _choices.clear()
    _per_shape.clear()
    _files.clear()
    costmodel.clear_cache()
    _seen_generation = tunedb.generation


registry.on_change(lambda name: clear_cache())


def choose(M: int, N: int, K: int, dtype: Any = "float32", device: Any = None,
           precision: str = "auto") -> Choice:
    """The strategy and params `auto` uses for an M x N x K product under the precision request
    `precision` (cached per bucket for database entries, per shape for the heuristic's picks)."""
    if tunedb.generation != _seen_generation:
        clear_cache()
    dt = as_dtype(dtype)
    dev = device_id(device)
    key = bucket(M, N, K, dt, precision)
    # The modes are part of the key: "auto" allows tf32x3 from K = TF32X3_MIN_K only, and a
    # bucket can straddle that K.
    ck = (dev, key, modes_for(precision, dt, K))
    # A database entry serves its whole bucket; the heuristic's pick is cached per exact shape,
    # because it is a function of the shape whose thresholds (M or N <= 8 for the GEMV rungs) sit
    # inside the smallest bucket (16).
    sk = (*ck, M, N, K)
    hit = _choices.get(ck) or _choices.get(sk)
    if hit is not None:
        return hit
    found = lookup_entry(M, N, K, dt, dev, precision)
    if found is not None:
        source, entry = found
        choice = _choices[ck] = Choice(entry["strategy"], dict(entry.get("params", {})), source, key, entry)
        return choice
    fallback = fallback_choice(M, N, K, dt, device, precision)
    if len(_choices) >= _MAX_SHAPES:
        _choices.clear()
    choice = _choices[sk] = replace(fallback, bucket=key,
                                    transposed=transposed_choice(M, N, K, dt, device, precision, fallback))
    return choice


def fallback_choice(M: int, N: int, K: int, dtype: Any = "float32", device: Any = None,
                    precision: str = "auto") -> Choice:
    """The :class:`Choice` the dispatch mode makes for the shape where no database entry serves it
    (what :func:`choose` runs then, less its bucket and transposed run; not cached; the tuner
    times it beside its search). Its `moved_from` is the pick :func:`xb_choice` replaced."""
    dt = as_dtype(dtype)
    moved = None
    if _mode == "model" or (_mode == "auto" and dt in MODEL_DTYPES):
        best = model_choice(M, N, K, dt, device, precision)
        name, params, source = best.strategy, _own_params(best), "model"
    else:
        hopper = device_id(device).hopper
        name, params = recommend(M, N, K, dt, sms=_sm_count(device), precision=precision,
                                 wgmma=hopper, dmma=hopper)
        params, source = dict(params or {}), "heuristic"
        best = _model_override(M, N, K, dt, device, precision, name)
        if best is not None:
            name, params, source = best.strategy, _own_params(best), "model"
        xb = xb_choice(M, N, K, dt, device, precision, name, params)
        if xb is not None:
            moved = (name, narrowed(name, params, M, device))
            (name, params), source = xb, "model" if xb[0] in NARROW_RUNGS else "heuristic"
    return Choice(name, narrowed(name, params, M, device), source, moved_from=moved)


def _own_params(p: costmodel.Prediction) -> dict:
    """The prediction's params that differ from its strategy's default (as the heuristic and the
    databases write them)."""
    default = registry.get(p.strategy).default.params()
    return {k: v for k, v in p.params.items() if default.get(k) != v}


def _sm_count(device: Any) -> int:
    """SMs of `device`; a DeviceId (a database identity, not a GPU) reads the current device's."""
    return _limits(device).sm_count


def for_shape(M: int, N: int, K: int, dt: DType, device: int, build: Callable[[Choice], T],
              precision: str = "auto") -> T:
    """``build(choose(...))`` for this exact shape and precision request, cached: one dict lookup
    after the first call.

    The API passes a `build` that turns a choice into its kernel object, so the object the hot
    path needs is what the cache holds.
    """
    hit = _per_shape.get((device, dt, precision, M, N, K))
    if hit is not None and tunedb.generation == _seen_generation:
        return hit
    made = build(choose(M, N, K, dt, device, precision))
    if len(_per_shape) >= _MAX_SHAPES:
        _per_shape.clear()
    _per_shape[(device, dt, precision, M, N, K)] = made
    return made


__all__ = ["Choice", "choose", "for_shape", "lookup_entry", "clear_cache", "get_mode", "set_mode", "MODES",
           "MODE_ENV", "model_choice", "measured_efficiencies", "narrowed", "transposed_choice"]
