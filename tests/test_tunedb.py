"""The tuning database: buckets, location, round trip, corruption, foreign entries, concurrent writers."""

from __future__ import annotations

import importlib
import json
import multiprocessing as mp
import threading
import warnings
from pathlib import Path

import pytest

from tiled_matmul import dispatch
from tiled_matmul import tunedb as tdb

DEV = tdb.DeviceId("NVIDIA H100 80GB HBM3", "90", "0.1.0")
ENTRY = {"strategy": "register_blocked", "params": {"bm": 64, "bn": 64, "bk": 16, "tm": 4, "tn": 4},
         "median_ms": 1.5, "shape": [4096, 4096, 4096]}


@pytest.fixture(autouse=True)
def _fresh(fresh_tunedb):
    """Every test here starts from an empty user tuning DB and cold dispatch caches."""


# -- buckets ------------------------------------------------------------------------------------
@pytest.mark.parametrize("d,want", [(0, 1), (1, 1), (2, 2), (3, 4), (5, 8), (8, 8), (9, 16), (16, 16), (17, 24), (24, 24), (25, 32), (33, 48),
                                    (100, 128), (129, 192), (1000, 1024), (1025, 1536), (2999, 3072),
                                    (3072, 3072), (3073, 4096), (4096, 4096), (8192, 8192), (16384, 16384)])
def test_bucket_dim(d, want):
    assert tdb.bucket_dim(d) == want


def test_bucket_keys():
    assert tdb.bucket(4096, 4096, 4096) == "float32/4096x4096x4096"
    assert tdb.bucket(4000, 3900, 4096) == "float32/4096x4096x4096"  # nearby shapes share
    assert tdb.bucket(3001, 2999, 3007) == "float32/3072x3072x3072/ragged"
    assert tdb.bucket(3001, 3000, 3008) == "float32/3072x3072x3072"  # M does not affect alignment
    assert tdb.bucket(16384, 64, 4096, "float64") == "float64/16384x64x4096"
    assert tdb.bucket(128, 8192, 8192) != tdb.bucket(8192, 8192, 128)
    with pytest.raises(TypeError):
        tdb.bucket(4, 4, 4, "int32")


# -- location -----------------------------------------------------------------------------------
def test_env_var_overrides_location(monkeypatch, tmp_path):
    monkeypatch.setenv(tdb.ENV_VAR, str(tmp_path / "x" / "db.json"))
    assert tdb.user_db_path() == tmp_path / "x" / "db.json"


def test_platform_locations(monkeypatch, tmp_path):
    monkeypatch.delenv(tdb.ENV_VAR, raising=False)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    monkeypatch.setattr(tdb.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tdb.user_db_path() == tmp_path / "xdg" / "tiled-matmul" / "tunedb.json"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    assert tdb.user_db_path() == tmp_path / ".cache" / "tiled-matmul" / "tunedb.json"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert tdb.user_db_path() == tmp_path / ".cache" / "tiled-matmul" / "tunedb.json"
    monkeypatch.setattr(tdb.sys, "platform", "darwin")
    assert tdb.user_db_path() == tmp_path / "Library" / "Caches" / "tiled-matmul" / "tunedb.json"
    monkeypatch.setattr(tdb.sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert tdb.user_db_path() == tmp_path / "Local" / "tiled-matmul" / "Cache" / "tunedb.json"


# -- round trip ---------------------------------------------------------------------------------
def test_round_trip(tmp_path):
    path = tmp_path / "sub" / "db.json"
    assert tdb.read_db(path)["devices"] == {}  # missing file: empty, no warning
    written = tdb.save_entries({"float32/4096x4096x4096": ENTRY}, DEV, path)
    assert written == path
    doc = json.loads(path.read_text())
    assert doc["schema"] == tdb.SCHEMA and doc["version"] == tdb.SCHEMA_VERSION
    assert tdb.entries_for(tdb.read_db(path), DEV) == {"float32/4096x4096x4096": ENTRY}
    # a second save merges and overwrites per key
    tdb.save_entries({"float32/1024x1024x1024": {"strategy": "register_blocked", "params": {}}}, DEV, path)
    new = dict(ENTRY, median_ms=1.0)
    tdb.save_entries({"float32/4096x4096x4096": new}, DEV, path)
    got = tdb.entries_for(tdb.read_db(path), DEV)
    assert set(got) == {"float32/4096x4096x4096", "float32/1024x1024x1024"}
    assert got["float32/4096x4096x4096"]["median_ms"] == 1.0
    leftovers = [p.name for p in path.parent.iterdir() if p.name not in ("db.json", "db.json.lock")]
    assert leftovers == []  # no temporary files left behind


def test_default_path_used(tmp_path):
    tdb.save_entries({"float32/16x16x16": ENTRY}, DEV)
    assert (tmp_path / "user.json").exists()


def test_save_rejects_bad_entry(tmp_path):
    with pytest.raises(ValueError):
        tdb.save_entries({"k": {"strategy": "x", "params": {"bm": "64"}}}, DEV, tmp_path / "db.json")
    assert not (tmp_path / "db.json").exists()


# -- corruption ---------------------------------------------------------------------------------
@pytest.mark.parametrize("content", [
    b"\x00\xff garbage {{{", b"", b'{"schema": "tiled-matmul/tunedb", "version": 1, "devices": [',
    b"[1, 2, 3]", b'{"some": "other tool"}', b'{"schema": "tiled-matmul/tunedb", "version": 99, "devices": {}}',
    b'{"schema": "tiled-matmul/tunedb", "version": 1, "devices": 7}',
], ids=["binary", "empty", "truncated", "list", "foreign-json", "future-version", "bad-devices"])
def test_corrupt_file_warns_and_is_ignored(tmp_path, content, monkeypatch):
    path = tmp_path / "db.json"
    path.write_bytes(content)
    with pytest.warns(tdb.TuneDBWarning):
        doc = tdb.read_db(path)
    assert doc["devices"] == {}
    # lookup through the env var: warns, no crash, falls back
    monkeypatch.setenv(tdb.ENV_VAR, str(path))
    with pytest.warns(tdb.TuneDBWarning):
        choice = dispatch.choose(4096, 4096, 4096, device=DEV)
    assert choice.source in ("shipped-db", "heuristic", "fallback")
    # saving over it moves the bad file aside and writes a valid database
    with pytest.warns(tdb.TuneDBWarning, match="moved it"):
        tdb.save_entries({"float32/16x16x16": ENTRY}, DEV, path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tdb.entries_for(tdb.read_db(path), DEV) == {"float32/16x16x16": ENTRY}
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == content


def test_malformed_entries_dropped_rest_kept(tmp_path):
    path = tmp_path / "db.json"
    doc = {"schema": tdb.SCHEMA, "version": 1, "devices": {
        DEV.key: {"device": DEV.name, "cc": DEV.cc, "package": DEV.package, "entries": {
            "good": ENTRY, "no-strategy": {"params": {}}, "float-param": {"strategy": "x", "params": {"bm": 1.5}},
            "not-a-dict": 3}},
        "broken-section": {"entries": "nope"}}}
    path.write_text(json.dumps(doc))
    with pytest.warns(tdb.TuneDBWarning, match="skipped"):
        got = tdb.entries_for(tdb.read_db(path), DEV)
    assert got == {"good": ENTRY}


def test_unreadable_path_warns(tmp_path):
    path = tmp_path / "a_dir.json"
    path.mkdir()
    with pytest.warns(tdb.TuneDBWarning):
        assert tdb.read_db(path)["devices"] == {}


# -- foreign entries ----------------------------------------------------------------------------
@pytest.mark.parametrize("other", [
    tdb.DeviceId("NVIDIA A100-SXM4-80GB", "80", "0.1.0"),
    tdb.DeviceId("NVIDIA H100 80GB HBM3", "89", "0.1.0"),
    tdb.DeviceId("NVIDIA H100 80GB HBM3", "90", "0.0.1"),
], ids=["other-gpu", "other-cc", "other-version"])
def test_foreign_entry_ignored(tmp_path, other, monkeypatch):
    path = tmp_path / "user.json"
    tdb.save_entries({tdb.bucket(4096, 4096, 4096): ENTRY}, other, path)
    assert tdb.entries_for(tdb.read_db(path), DEV) == {}
    assert tdb.entries_for(tdb.read_db(path), other) != {}
    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [])
    choice = dispatch.choose(4096, 4096, 4096, device=DEV)
    assert choice.source in ("heuristic", "fallback")
    # the writer's own device still sees it, and both sections survive a write from DEV
    tdb.save_entries({"float32/16x16x16": ENTRY}, DEV, path)
    doc = tdb.read_db(path)
    assert set(doc["devices"]) == {DEV.key, other.key}


# -- concurrent writers -------------------------------------------------------------------------
def _writer(path: str, proc: int, n: int) -> None:
    db = importlib.import_module("tiled_matmul.tunedb")
    dev = db.DeviceId("NVIDIA H100 80GB HBM3", "90", "0.1.0")
    for i in range(n):
        db.save_entries({f"float32/p{proc}/k{i}": {"strategy": "register_blocked", "params": {"bm": 64 + i},
                                                   "proc": proc}}, dev, path)


def _check_all(path: Path, procs: int, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = tdb.read_db(path)
    json.loads(path.read_text())  # valid JSON
    keys = set(tdb.entries_for(doc, DEV))
    assert keys == {f"float32/p{p}/k{i}" for p in range(procs) for i in range(n)}


def test_concurrent_processes(tmp_path):
    path = tmp_path / "db.json"
    procs, n = 8, 6
    ctx = mp.get_context("spawn")
    workers = [ctx.Process(target=_writer, args=(str(path), p, n)) for p in range(procs)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert all(w.exitcode == 0 for w in workers), [w.exitcode for w in workers]
    _check_all(path, procs, n)


def test_concurrent_threads(tmp_path):
    path = tmp_path / "db.json"
    procs, n = 8, 10
    errors = []

    def run(p):
        try:
            _writer(str(path), p, n)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in range(procs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    _check_all(path, procs, n)


def test_reader_never_sees_partial_file(tmp_path):
    """Readers racing a writer see either the old or the new complete file, never a torn one."""
    path = tmp_path / "db.json"
    tdb.save_entries({"float32/16x16x16": ENTRY}, DEV, path)
    stop = threading.Event()
    bad = []

    def read_loop():
        while not stop.is_set():
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                tdb.read_db(path)
            bad.extend(w)

    reader = threading.Thread(target=read_loop)
    reader.start()
    try:
        for i in range(40):
            tdb.save_entries({f"float32/{i}": dict(ENTRY, pad="x" * 2000)}, DEV, path)
    finally:
        stop.set()
        reader.join()
    assert bad == []
