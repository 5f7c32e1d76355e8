"""Rendering: every registered config renders, deterministically, with a unique symbol (CPU only)."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest

import tiled_matmul as tm
from tiled_matmul.render import environment, kernel_name, render, templates_dir

ALL = [(n, c, dt) for n, e in tm.STRATEGIES.items() for c in (e.default, *e.search_space)
       for dt in ("float32", "float64") if e.supports(dt)]


@pytest.mark.parametrize("name,cfg,dtype", ALL, ids=[f"{n}-{c.tag()}-{d}" for n, c, d in ALL])
def test_renders(name, cfg, dtype):
    src = render(tm.STRATEGIES[name], cfg, dtype)
    sym = kernel_name(name, cfg, dtype)
    assert re.search(r'extern "C" __global__', src)
    assert f"{sym}(" in src
    # no jinja left over ("{%" followed by a digit is a PTX operand list, as in TMA's "{%2, %3}")
    assert "{{" not in src and not re.search(r"\{%(?!\d)", src)
    if tm.STRATEGIES[name].supports("float64"):  # float32-only templates declare no T
        ctype = "float" if dtype == "float32" else "double"
        assert f"typedef {ctype} T;" in src
    for k, v in cfg.named_params().items():  # (a switch at 0 is not rendered: Config.SWITCHES)
        assert f"constexpr int {k.upper()} = {v};" in src, k
    assert render(tm.STRATEGIES[name], cfg, dtype) == src  # deterministic


def test_launch_bounds_take_named_constants_rendered_from_python():
    # One style in every template: `constexpr int THREADS = {{ THREADS }};` with the other
    # constants, and __launch_bounds__ naming constants, never literals.
    for name, entry in tm.STRATEGIES.items():
        cfg = entry.default
        src = render(tm.STRATEGIES[name], cfg, entry.default_dtype)
        assert f"constexpr int THREADS = {cfg.threads};" in src, name
        bounds = re.findall(r"__launch_bounds__\(([^)]*)\)", src)
        assert bounds and bounds[0].split(",")[0].strip() == "THREADS", (name, bounds)
        for args in bounds:
            assert all(re.fullmatch(r"[A-Z_]+", a.strip()) for a in args.split(",")), (name, args)
    # The reduce kernel's block size is the one SplitKConfig.run launches with.
    cfg = tm.STRATEGIES["split_k"].default
    src = render(tm.STRATEGIES["split_k"], cfg, "float32")
    assert f"constexpr int REDUCE_THREADS = {cfg.REDUCE_THREADS};" in src
    assert "__launch_bounds__(REDUCE_THREADS)" in src


def test_unsupported_dtype_does_not_render():
    with pytest.raises(ValueError, match="'tensor_core' computes float32 only, not float64"):
        render(tm.STRATEGIES["tensor_core"], tm.STRATEGIES["tensor_core"].default, "float64")


def test_symbols_unique():
    names = [kernel_name(n, c, d) for n, c, d in ALL]
    assert len(set(names)) == len(set((n, c, d) for n, c, d in ALL))


def test_templates_exist_one_per_strategy_in_ladder_order():
    files = sorted(p.name for p in templates_dir().glob("*.cu.j2"))
    assert sorted(e.template for e in tm.STRATEGIES.values()) == files
    numbers = [int(e.template.split("_")[0]) for e in tm.STRATEGIES.values()]
    assert numbers == sorted(numbers)


def test_templates_come_from_this_checkout():
    # An editable install of another checkout maps tiled_matmul.kernels to its own folder; the
    # package imported here must still render the kernels/ that sits next to it.
    assert templates_dir() == Path(tm.__file__).resolve().parent.parent / "kernels"


def test_no_helper_is_defined_in_two_templates():
    # Shared CUDA helpers live in partials (kernels/_*.j2), included where used.
    where: dict[str, list[str]] = {}
    for path in sorted(templates_dir().glob("*.j2")):
        text = path.read_text()
        names = re.findall(r"__device__[^;{()]*?\b(\w+)\s*\(", text)
        names += re.findall(r"#define\s+(\w+)", text) + re.findall(r"\{%-?\s*macro\s+(\w+)", text)
        for name in set(names):
            where.setdefault(name, []).append(path.name)
    assert where, "no helpers found: the pattern no longer matches the templates"
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, f"helpers defined in more than one template: {twice}"


def test_strict_undefined():
    assert environment().undefined is jinja2.StrictUndefined
    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ NOT_A_VARIABLE }}").render()


def test_source_api_matches_seed_tile():
    src = tm.source("smem_tiled", tile=32)
    assert "constexpr int TILE = 32;" in src and "__syncthreads()" in src
    with pytest.raises(ValueError):
        tm.source("smem_tiled", tile=64)


def test_render_rejects_wrong_config_type():
    with pytest.raises(TypeError, match="SmemTiledConfig"):
        render(tm.STRATEGIES["smem_tiled"], tm.STRATEGIES["naive"].default)


@pytest.mark.parametrize("bad", ["int32", "complex64"])
def test_render_rejects_dtype(bad):
    with pytest.raises(TypeError, match="allowed: float32, float64"):
        tm.source("naive", dtype=bad)


def test_render_names_the_strategies_of_a_dtype_it_does_not_compute():
    # float16 is a kernel dtype (mma_half and wgmma_tma compute it), just not naive's
    with pytest.raises(ValueError, match="naive computes float32, float64 only, got float16; strategies for float16: "
                                         ".*mma_half.*wgmma_tma|.*wgmma_tma.*mma_half"):
        tm.source("naive", dtype="float16")
