"""The tuning database: where it lives, its format, shape buckets, and atomic merging writes.

Where the database lives
------------------------
One JSON file per user, found by :func:`user_db_path`:

* ``$TILED_MATMUL_TUNE_DB`` (a file path) when set — it overrides everything below;
* Linux and other POSIX: ``$XDG_CACHE_HOME/tiled-matmul/tunedb.json``, ``~/.cache/tiled-matmul/tunedb.json``
  when ``XDG_CACHE_HOME`` is unset or not absolute;
* macOS: ``~/Library/Caches/tiled-matmul/tunedb.json``;
* Windows: ``%LOCALAPPDATA%\\tiled-matmul\\Cache\\tunedb.json``.

The package also ships read-only databases in ``tiled_matmul/data/*.json`` (``tuned_h100.json``
for the H100 SXM), written by ``scripts/tune_suite.py`` in the same format.

File format
-----------
::

    {"schema": "tiled-matmul/tunedb", "version": 1,
     "devices": {"<name>|sm_<cc>|<package version>": {
         "device": "NVIDIA H100 80GB HBM3", "cc": "90", "package": "0.1.0",
         "entries": {"float32/4096x4096x4096": {"strategy": "...", "params": {...},
                                              "median_ms": ..., "shape": [M, N, K], ...}}}}}

A device section may also hold ``"efficiency"``: the cost model's measured efficiencies
(:mod:`tiled_matmul.costmodel`), ``{"compute:wgmma|float32|tf32x3|bm64_...": {"efficiency": 0.41,
"samples": 3, "updated": ...}}``, keyed per term, strategy, dtype, precision mode and config (and
without the config: the strategy's), written by the tuner for every candidate it times; and a
tuned entry may hold the ``"efficiency"`` of its pick. Both are optional: files written before
they existed load unchanged, and this package's readers ignore fields they do not know.

Entries are keyed per GPU by device name, compute capability and package version: a user-database
entry written by another GPU or another package version is never used (kernels change between
versions). The shipped databases are matched on device name and compute capability only, since they
ship with the package they describe. A file that is not valid JSON or not this schema is ignored
with a ``warnings.warn`` and never raises; the next save moves it aside to ``<name>.corrupt-<time>``.

Writes are atomic and merge: under an exclusive lock on ``<db>.lock`` (``fcntl.flock`` on POSIX,
``msvcrt.locking`` on Windows) the current file is re-read, the new entries merged in, the result
written to a temporary file in the same folder and moved over the database with ``os.replace``.
Concurrent tuners (threads or processes) therefore never lose each other's entries, and readers
never see a half-written file.

Shape buckets
-------------
Nearby shapes share an entry. :func:`bucket` rounds each of M, N, K up to the next point of a
half-octave grid — the powers of two and 1.5 times the powers of two from 16, and the powers of two
below it: ``1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, …``
(below 16 the GEMV rungs' best config follows M or N itself: one chunk of a power-of-two rows
covers them, so M = 1 and M = 8 must not share an entry).
— and adds a ``ragged`` flag when N or K is not a multiple of 4, because then the rows of A, B or
C are not 16-byte aligned and the kernels' 128-bit load path is off. The key is
``"<dtype>/<M'>x<N'>x<K'>"`` plus ``"/ragged"``; e.g. 3001×2999×3007 float32 →
``"float32/3072x3072x3072/ragged"`` and 1000×1000×1000 → ``"float32/1024x1024x1024"``.

How `strategy="auto"` reads these files is :mod:`tiled_matmul.dispatch`.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import os
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from .device import device_limits, is_hopper
from .dtypes import as_dtype

SCHEMA = "tiled-matmul/tunedb"
SCHEMA_VERSION = 1
ENV_VAR = "TILED_MATMUL_TUNE_DB"
APP_NAME = "tiled-matmul"
DB_FILENAME = "tunedb.json"
#: Where the H100 stand-in (used without a GPU) looks itself up: the name the H100 SXM reports.
H100_NAME = "NVIDIA H100 80GB HBM3"
#: Row alignment the 128-bit paths need, in elements (16 bytes of float32).
RAGGED_MULTIPLE = 4
#: from here up the grid is half-octave; below it, powers of two
MIN_BUCKET = 16


#: bumped by every :func:`save_entries` of this process, so that the dispatch's caches know
#: when what they read may have changed
generation = 0


class TuneDBWarning(UserWarning):
    """A tuning database file was ignored (corrupt, foreign schema) or an entry was unusable."""


# ---------------------------------------------------------------------------------------------
# identities, paths and buckets
# ---------------------------------------------------------------------------------------------
def package_version() -> str:
    mod = sys.modules.get("tiled_matmul")
    ver = getattr(mod, "__version__", None)
    if ver:
        return str(ver)
    try:
        from importlib.metadata import version

        return version("tiled-matmul")
    except Exception:
        return "0+unknown"


@dataclass(frozen=True)
class DeviceId:
    """What a database entry is keyed by: GPU name, compute capability ("90") and package version."""

    name: str
    cc: str
    package: str

    @property
    def key(self) -> str:
        return f"{self.name}|sm_{self.cc}|{self.package}"

    @property
    def hopper(self) -> bool:
        """Compute capability 9.0 (as DeviceLimits.hopper): the sm_90a rungs may run."""
        return is_hopper(self.cc)


def device_id(device: Any = None) -> DeviceId:
    """The DeviceId of `device` (an id, a DeviceLimits, a DeviceId, or None for the current device).

    Without a GPU this is the H100 stand-in, named as the H100 SXM reports itself, so that
    :func:`choose` answers for the machine the package targets.
    """
    if isinstance(device, DeviceId):
        return device
    lim = device_limits(device)
    name = lim.name if lim.is_real else lim.name.split(" (assumed")[0]
    return DeviceId(name, str(lim.compute_capability), package_version())


def user_db_path() -> Path:
    """The user's tuning database file (see the module docstring for the rule)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return _cache_dir() / DB_FILENAME


def _cache_dir() -> Path:
    home = Path.home()
    if sys.platform.startswith("win"):
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA")
        root = Path(base) if base else home / "AppData" / "Local"
        return root / APP_NAME / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / APP_NAME
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache"
    return root / APP_NAME


def shipped_db_paths() -> list[Path]:
    """The read-only databases shipped in ``tiled_matmul/data/``."""
    data = Path(__file__).resolve().parent / "data"
    return sorted(data.glob("*.json")) if data.is_dir() else []


def bucket_dim(d: int) -> int:
    """`d` rounded up to the grid 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, … (powers of two, and from 16
    on also 3·2^(k-1))."""
    d = int(d)
    if d <= MIN_BUCKET:
        return 1 << max(d - 1, 0).bit_length()
    p = 1 << (d - 1).bit_length()  # smallest power of two >= d
    three_quarters = (p >> 2) * 3
    return three_quarters if d <= three_quarters else p


def is_ragged(M: int, N: int, K: int) -> bool:
    """True when a row of A (K) or of B and C (N) is not a multiple of 4 elements."""
    return bool(N % RAGGED_MULTIPLE or K % RAGGED_MULTIPLE)


def bucket(M: int, N: int, K: int, dtype="float32", precision: str = "auto") -> str:
    """The database key of an M x N x K product of `dtype` (see the module docstring), tuned under
    the precision request `precision`: "auto" keys carry no precision ("float32/4096x4096x4096"),
    others name it after the dtype ("float32:tf32/4096x4096x4096")."""
    tag = as_dtype(dtype) if precision == "auto" else f"{as_dtype(dtype)}:{precision}"
    key = f"{tag}/{bucket_dim(M)}x{bucket_dim(N)}x{bucket_dim(K)}"
    return key + "/ragged" if is_ragged(M, N, K) else key


# ---------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------
def _empty() -> dict:
    return {"schema": SCHEMA, "version": SCHEMA_VERSION, "devices": {}}


def _valid_entry(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    if not isinstance(entry.get("strategy"), str):
        return False
    params = entry.get("params", {})
    return isinstance(params, dict) and all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in params.items()
    )


def _valid_efficiency(rec: Any) -> bool:
    if not isinstance(rec, dict):
        return False
    e, n = rec.get("efficiency"), rec.get("samples", 1)
    return (isinstance(e, (int, float)) and not isinstance(e, bool) and math.isfinite(e) and e > 0
            and isinstance(n, int) and not isinstance(n, bool) and n >= 1)


def _parse(text: str, path: Path) -> "tuple[dict, str | None]":
    """(normalised document, problem) for `text`; problem is None when the file is usable.

    Malformed entries and device sections are dropped one by one (with a problem note) so one bad
    entry does not cost the rest of the file.
    """
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return _empty(), f"not valid JSON ({exc})"
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        return _empty(), f"not a tiled-matmul tuning database (schema is not {SCHEMA!r})"
    if doc.get("version") != SCHEMA_VERSION:
        return _empty(), f"schema version {doc.get('version')!r}, this package reads version {SCHEMA_VERSION}"
    devices = doc.get("devices")
    if not isinstance(devices, dict):
        return _empty(), "'devices' is not an object"
    out = _empty()
    dropped = 0
    for dkey, section in devices.items():
        if not (isinstance(section, dict) and isinstance(section.get("entries"), dict)
                and isinstance(section.get("device"), str) and isinstance(section.get("cc"), str)):
            dropped += 1
            continue
        entries = {k: v for k, v in section["entries"].items() if isinstance(k, str) and _valid_entry(v)}
        dropped += len(section["entries"]) - len(entries)
        clean = {**section, "entries": entries}
        if "efficiency" in section:
            eff = section["efficiency"] if isinstance(section["efficiency"], dict) else {}
            clean["efficiency"] = {k: v for k, v in eff.items() if isinstance(k, str) and _valid_efficiency(v)}
            dropped += (len(eff) if eff else 1) - len(clean["efficiency"])
        out["devices"][dkey] = clean
    return out, (f"{dropped} malformed device section(s)/entries skipped" if dropped else None)


def read_db(path: "str | os.PathLike", *, warn: bool = True) -> dict:
    """The database at `path` as a dict (empty when missing); never raises for a bad file.

    A file that is corrupt or of another schema is reported with ``warnings.warn`` (category
    :class:`TuneDBWarning`) and read as empty.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return _empty()
    except (OSError, UnicodeDecodeError) as exc:
        if warn:
            warnings.warn(f"tiled-matmul: ignoring tuning database {path}: cannot read it ({exc})",
                          TuneDBWarning, stacklevel=2)
        return _empty()
    doc, problem = _parse(text, path)
    if problem and warn:
        warnings.warn(f"tiled-matmul: tuning database {path}: {problem}; ignoring "
                      + ("the bad parts" if doc["devices"] else "it"), TuneDBWarning, stacklevel=2)
    return doc


def _sections_for(doc: Mapping, dev: DeviceId, match_package: bool) -> Iterable[dict]:
    """The device sections of `doc` that belong to `dev` (and its package version when `match_package`)."""
    for section in doc.get("devices", {}).values():
        if section.get("device") != dev.name or section.get("cc") != dev.cc:
            continue
        if match_package and section.get("package") != dev.package:
            continue
        yield section


def entries_for(doc: Mapping, dev: DeviceId, *, match_package: bool = True) -> dict[str, dict]:
    """The entries of `doc` that belong to `dev` (and its package version when `match_package`)."""
    out: dict[str, dict] = {}
    for section in _sections_for(doc, dev, match_package):
        out.update(section["entries"])
    return out


def efficiency_for(doc: Mapping, dev: DeviceId, *, match_package: bool = True) -> dict[str, float]:
    """The measured efficiencies of `doc` that belong to `dev` (key -> efficiency); {} for a
    database written before they existed."""
    out: dict[str, float] = {}
    for section in _sections_for(doc, dev, match_package):
        out.update({k: float(v["efficiency"]) for k, v in section.get("efficiency", {}).items()})
    return out


#: a stored efficiency is the geometric mean of its last samples, this many at most (older
#: samples fade out, so a retuned kernel's new speed takes over)
EFFICIENCY_SAMPLES = 8


def merge_efficiency(old: "Mapping | None", sample: float) -> dict:
    """The stored record after one more `sample`: a running geometric mean over at most
    EFFICIENCY_SAMPLES samples.

    >>> merge_efficiency({"efficiency": 0.4, "samples": 1}, 0.9)["efficiency"]
    0.6
    """
    if not old or not _valid_efficiency(old):
        return {"efficiency": round(float(sample), 4), "samples": 1, "updated": timestamp()}
    n = min(int(old.get("samples", 1)), EFFICIENCY_SAMPLES - 1)
    value = math.exp((n * math.log(old["efficiency"]) + math.log(sample)) / (n + 1))
    return {"efficiency": round(value, 4), "samples": int(old.get("samples", 1)) + 1, "updated": timestamp()}


# ---------------------------------------------------------------------------------------------
# writing: lock, merge, atomic replace
# ---------------------------------------------------------------------------------------------
_thread_lock = threading.Lock()


@contextlib.contextmanager
def _file_lock(path: Path, timeout: float = 60.0):
    """An exclusive inter-process lock on ``<path>.lock`` (plus an in-process lock)."""
    lock_path = path.with_name(path.name + ".lock")
    with _thread_lock:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + timeout
            if os.name == "nt":  # pragma: no cover - exercised on Windows only
                import msvcrt

                while True:
                    try:
                        os.lseek(fd, 0, os.SEEK_SET)
                        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise TimeoutError(f"could not lock {lock_path} in {timeout:.0f} s") from None
                        time.sleep(0.01)
                try:
                    yield
                finally:
                    os.lseek(fd, 0, os.SEEK_SET)
                    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def _atomic_write(path: Path, doc: dict) -> None:
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save_entries(entries: Mapping[str, Mapping], dev: "DeviceId | None" = None,
                 path: "str | os.PathLike | None" = None,
                 efficiency: "Mapping[str, float] | None" = None) -> Path:
    """Merge `entries` (bucket key -> entry) into the section of `dev` of the database at `path`,
    and each measured `efficiency` sample (cost-model key -> efficiency) into the section's
    running means (:func:`merge_efficiency`).

    `path` defaults to :func:`user_db_path`, `dev` to the current device. Returns the path written.
    Raises OSError when the folder cannot be written; never loses entries another writer saved
    meanwhile. A corrupt or foreign file found there is moved aside to ``<name>.corrupt-<time>``.
    """
    path = Path(path) if path is not None else user_db_path()
    dev = dev or device_id()
    for key, entry in entries.items():
        if not _valid_entry(entry):
            raise ValueError(f"entry {key!r} needs a str 'strategy' and int 'params': {entry!r}")
    for key, sample in (efficiency or {}).items():
        if not _valid_efficiency({"efficiency": sample}):
            raise ValueError(f"efficiency {key!r} must be a positive finite number; got {sample!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(path):
        doc = _empty()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = None
        except (OSError, UnicodeDecodeError):
            text = ""
        if text is not None:
            doc, problem = _parse(text, path)
            if problem and not doc["devices"]:
                aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
                with contextlib.suppress(OSError):
                    os.replace(path, aside)
                warnings.warn(f"tiled-matmul: tuning database {path}: {problem}; moved it to {aside.name} "
                              f"and started a new one", TuneDBWarning, stacklevel=2)
        section = doc["devices"].setdefault(
            dev.key, {"device": dev.name, "cc": dev.cc, "package": dev.package, "entries": {}})
        section["entries"].update({k: dict(v) for k, v in entries.items()})
        if efficiency:
            stored = section.setdefault("efficiency", {})
            for key, sample in efficiency.items():
                stored[key] = merge_efficiency(stored.get(key), sample)
        section["updated"] = timestamp()
        _atomic_write(path, doc)
    global generation
    generation += 1
    return path


def timestamp() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def describe(doc: Mapping) -> Iterable[tuple[str, str, dict]]:
    """(device key, bucket key, entry) for every entry of a database document."""
    for dkey, section in doc.get("devices", {}).items():
        for key, entry in section.get("entries", {}).items():
            yield dkey, key, entry
