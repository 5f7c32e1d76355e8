"""The ``tiled-matmul`` command line: ``bench``, ``explain``, ``list``, ``source`` and ``tune``.

This module only wires arguments to the modules that do the work (:mod:`tiled_matmul.bench` and
:mod:`tiled_matmul.report`, :mod:`tiled_matmul.analysis`, :mod:`tiled_matmul.tuner`).

Subcommands come from one table, :data:`SUBCOMMANDS`. Each entry names a function that adds its
arguments to an :class:`argparse.ArgumentParser` and a handler that takes the parsed namespace
and returns an exit code. Code outside the package adds a subcommand with one entry, either in
the table or at import time through :func:`register`; :meth:`Subcommand.from_module` names a
module that is imported only when the parser is built::

    Subcommand.from_module("hello", "my_package.hello", "say hello")   # add_arguments(p), cli_main(args)

Exit codes: 0 success; 1 a benchmark row failed validation; 2 a usage error, bad input, or
no GPU for a command that needs one (one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from . import __version__, analysis, api, bench, device, registry, report, tuner
from . import precision as _precision
from .dtypes import DTYPES
from .measure import DEFAULT_BUDGET_S, ERROR, FAILED, precisions_arg, shape_arg, shapes_arg

PROG = "tiled-matmul"
DEFAULT_OUT = "./tiled-matmul-results"
NO_GPU_MESSAGE = ("no CUDA GPU available (cupy.is_available() is False); "
                  "`explain`, `list` and `source` work without one")


@dataclass(frozen=True)
class Subcommand:
    """One ``tiled-matmul NAME`` command."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    handler: Callable[[argparse.Namespace], int]
    #: checked before the handler runs: without a GPU the CLI prints one line and exits 2
    needs_gpu: bool = False

    @classmethod
    def from_module(cls, name: str, module: str, help: str, needs_gpu: bool = False,
                    configure: str = "add_arguments", handler: str = "cli_main") -> "Subcommand":
        """A subcommand whose parser setup and handler live in `module` (imported when the parser is
        built), as functions `configure(parser)` and `handler(args) -> int`."""

        def _configure(p: argparse.ArgumentParser) -> None:
            getattr(importlib.import_module(module), configure)(p)

        def _handle(args: argparse.Namespace) -> int:
            return getattr(importlib.import_module(module), handler)(args)

        return cls(name, help, _configure, _handle, needs_gpu)


# ---------------------------------------------------------------------------------------------
# argument types
# ---------------------------------------------------------------------------------------------
def parse_set(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` with an int value (argparse type for ``--set``)."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"--set expects NAME=VALUE (e.g. tile=16); got {text!r}")
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--set {name}: value must be an int; got {value!r}") from None


def _strategies_type(text: str) -> list[str]:
    try:
        return bench.resolve_strategies(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def precision_arg(text: str) -> str:
    """argparse type for a single ``--precision`` request."""
    values = precisions_arg(text)
    if len(values) != 1:
        raise argparse.ArgumentTypeError(f"--precision takes one of {', '.join(_precision.REQUESTS)} here; "
                                         f"got {text!r}")
    return values[0]


def _precision_option(p: argparse.ArgumentParser, several: bool, what: str) -> None:
    allowed = ", ".join(_precision.REQUESTS)
    p.add_argument("--precision", type=precisions_arg if several else precision_arg, default=None,
                   metavar="P,Q" if several else "P",
                   help=f"{what}; {'comma-separated, ' if several else ''}each one of {allowed} "
                        f"(default: the process default, {_precision.ENV} or auto); float64 takes auto or ieee")


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive int; got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive int; got {v}")
    return v


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number; got {text!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number; got {v}")
    return v


def _params(pairs: "Sequence[tuple[str, int]] | None") -> dict[str, int]:
    out: dict[str, int] = {}
    for name, value in pairs or ():
        if name in out:
            raise ValueError(f"--set {name} given twice")
        out[name] = value
    return out


def _strategy_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("strategy", metavar="STRATEGY", help=f"one of: {', '.join(registry.STRATEGIES)}")


def _set_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", dest="params", action="append", type=parse_set, metavar="NAME=VALUE", default=[],
                   help="set a config parameter (repeatable); defaults fill the rest")


def _dtypes_type(text: str) -> str:
    """argparse type of bench's --dtype: one element type or several, comma-separated."""
    names = [d.strip() for d in text.split(",") if d.strip()]
    bad = [d for d in names if d not in DTYPES]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"invalid choice: {', '.join(map(repr, bad)) or repr(text)} "
                                         f"(choose from {', '.join(DTYPES)}, comma-separated)")
    return ",".join(dict.fromkeys(names))


def _dtype_arg(p: argparse.ArgumentParser, per_strategy: bool = False) -> None:
    if per_strategy:  # one strategy: float64-only ones (dmma) default to float64
        p.add_argument("--dtype", default=None, choices=list(DTYPES),
                       help="element type (default float32, or the strategy's own where it does not compute float32: "
                            "float64 for dmma, float16 for mma_half)")
    else:
        p.add_argument("--dtype", default="float32", type=_dtypes_type, metavar="DTYPES",
                       help=f"element type(s), comma-separated, from {', '.join(DTYPES)}: a ladder block with its "
                            "own cuBLAS row per dtype (default float32)")


# ---------------------------------------------------------------------------------------------
# bench
# ---------------------------------------------------------------------------------------------
def _bench_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategies", type=_strategies_type, default=None, metavar="A,B",
                   help="comma-separated strategies (default: every registered one); cuBLAS is always a row")
    p.add_argument("--sizes", type=shapes_arg, default=None, metavar="SIZES",
                   help="comma-separated sizes: n for n³ or MxNxK (default 256,512,1024,2048,4096,3000x2000x1000)")
    _dtype_arg(p)
    p.add_argument("--repeat", type=_positive_int, default=None,
                   help="timed repeats per row (default 10, --quick 5); rows slower than the row budget run fewer, at least 3")
    p.add_argument("--quick", action="store_true", help="smaller sizes (up to 1024³), 5 repeats, tile study at 1024³")
    p.add_argument("--tf32", action="store_true", help="add a cuBLAS row with TF32 explicitly on (float32 only)")
    _precision_option(p, True, "precision request(s) to benchmark, a block of rows each (the reference for "
                               "tf32 is cuBLAS with TF32 on, for the others TF32 off)")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"output folder (default {DEFAULT_OUT}/)")
    p.add_argument("--tile-size", type=shape_arg, default=None, metavar="SHAPE",
                   help="size of the tile-size study (default 2048, --quick 1024)")
    p.add_argument("--no-tile-study", dest="tile_study", action="store_false", help="skip the tile-size study")
    p.add_argument("--row-budget", type=_positive_float, default=None, metavar="SECONDS",
                   help="timing budget per row (default 1.0 s)")
    p.add_argument("--no-plots", dest="plots", action="store_false", help="write JSON/CSV only")


def _bench(args: argparse.Namespace) -> int:
    out = report.console()
    progress = report.Progress("bench", after_s=2.0)
    t0 = time.perf_counter()
    try:
        result = bench.run(strategies=args.strategies, sizes=args.sizes, dtype=args.dtype, repeat=args.repeat,
                           quick=args.quick, tf32=args.tf32, tile_study=args.tile_study, tile_size=args.tile_size,
                           row_budget_s=args.row_budget or DEFAULT_BUDGET_S, progress=progress,
                           precision=args.precision)
    finally:
        progress.close()
    out.print(report.header_line(result))
    out.print(report.ladder_table(result))
    if result.tiles():
        out.print(report.tile_table(result))
    paths = report.write_outputs(result, args.out, with_plots=args.plots)
    out.print("wrote " + ", ".join(str(p) for p in paths.values()))
    bad = [r for r in result.records if r.status in (FAILED, ERROR)]
    untimed = [r for r in result.records if not r.ok]
    out.print(f"cuBLAS TF32 {result.meta.get('tf32', 'off')} · precision {', '.join(result.meta['precision'])} · "
              f"{len(result.records)} rows · {len(untimed)} not timed ({len(bad)} failed) · "
              f"{time.perf_counter() - t0:.1f} s")
    return 1 if bad else 0


# ---------------------------------------------------------------------------------------------
# explain
# ---------------------------------------------------------------------------------------------
def _explain_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("strategy", metavar="STRATEGY", nargs="?", default=None,
                   help=f"one of: {', '.join(registry.STRATEGIES)}, or auto (the kernel strategy='auto' picks)")
    p.add_argument("--auto", action="store_true",
                   help="explain the kernel strategy='auto' picks for the shape under --precision (no STRATEGY)")
    _precision_option(p, False, "precision the strategy computes in (tensor-core rungs: tf32x3 or tf32; "
                                "FFMA rungs: ieee), or the request auto's choice is made for")
    p.add_argument("--shape", type=shape_arg, required=True, metavar="MxNxK", help="problem size, e.g. 1024x1024x1024")
    _set_arg(p)
    _dtype_arg(p, per_strategy=True)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--registers", type=_positive_int, default=None,
                   help="registers per thread to assume (default: compiled kernel with a GPU, ptxas without)")
    p.add_argument("--no-measure", dest="measure", action="store_false", default=None,
                   help="with a GPU, skip timing the kernel")


def _explain(args: argparse.Namespace) -> int:
    if args.auto and args.strategy not in (None, "auto"):
        raise ValueError(f"--auto explains auto's choice; give no STRATEGY with it (got {args.strategy!r})")
    strategy = "auto" if args.auto else args.strategy
    if strategy is None:
        raise ValueError(f"name a STRATEGY ({', '.join(registry.STRATEGIES)}) or give --auto")
    m = analysis.explain(strategy, args.shape, dtype=args.dtype, registers=args.registers, measure=args.measure,
                         precision=args.precision, **_params(args.params))
    if args.json:
        print(json.dumps(m, sort_keys=False))
        return 0
    out = report.console()
    out.print(analysis.explain_table(m))
    for note in m["notes"]:
        out.print(f"note: {note}")
    return 0


# ---------------------------------------------------------------------------------------------
# list and source
# ---------------------------------------------------------------------------------------------
def strategy_listing() -> list[dict[str, Any]]:
    """Every registered strategy: summary, parameters with defaults, search-space size and rules."""
    limits = device.device_limits()
    out = []
    for name, entry in registry.STRATEGIES.items():
        cfg = entry.default
        dt = entry.default_dtype
        try:
            rules = cfg.rule_texts(limits, dt)
        except Exception:
            rules = []
        smem_limit = limits.smem_per_block_optin if cfg.DYNAMIC_SMEM else limits.smem_per_block
        rules += ["every parameter is an int >= 1",
                  f"threads per block <= {limits.max_threads_per_block} (default config: {cfg.threads})",
                  f"shared memory per block <= {smem_limit:,} B (default config: {cfg.smem_bytes(dt):,} B {dt})"]
        out.append({
            "strategy": name,
            "tunable": entry.tunable,
            "summary": entry.summary,
            "parameters": cfg.params(),
            "search_space": len(entry.search_space),
            "constraints": rules,
            "template": entry.template,
        })
    return out


def _list_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _list(args: argparse.Namespace) -> int:
    items = strategy_listing()
    if args.json:
        print(json.dumps(items, indent=2))
        return 0
    from rich.table import Table

    t = Table(title="Registered strategies (constraints shown for the default config)", title_justify="left",
              show_lines=True)
    for col in ("strategy", "kind", "parameters (defaults)", "constraints", "summary"):
        t.add_column(col)
    for it in items:
        t.add_row(it["strategy"], "tunable" if it["tunable"] else "teaching",
                  "\n".join(f"{k}={v}" for k, v in it["parameters"].items()),
                  "\n".join(it["constraints"]), it["summary"] + f"\n({it['search_space']} configs in the search space)")
    report.console().print(t)
    return 0


def _source_args(p: argparse.ArgumentParser) -> None:
    _strategy_arg(p)
    _set_arg(p)
    _dtype_arg(p, per_strategy=True)
    _precision_option(p, False, "precision the strategy computes in (tensor-core rungs: tf32x3 or tf32; "
                                "FFMA rungs: ieee; auto keeps the strategy's own)")


def _source(args: argparse.Namespace) -> int:
    params = _params(args.params)
    if args.precision not in (None, "auto"):  # the config's field that selects the mode (passes)
        params = registry.get(args.strategy).make_config(**params).with_precision(args.precision).params()
    sys.stdout.write(api.source(args.strategy, dtype=args.dtype, **params))
    return 0


# ---------------------------------------------------------------------------------------------
# the table and main
# ---------------------------------------------------------------------------------------------
#: Every subcommand, in help order. Add one entry to add a command.
SUBCOMMANDS: list[Subcommand] = [
    Subcommand("bench", "benchmark the strategy ladder against cuBLAS (TF32 off), plus a tile-size study",
               _bench_args, _bench, needs_gpu=True),
    Subcommand("explain", "the tiling model of one strategy at one shape (no GPU needed)", _explain_args, _explain),
    Subcommand("list", "registered strategies, their parameters, defaults and constraints", _list_args, _list),
    Subcommand("source", "print the rendered CUDA source of a strategy", _source_args, _source),
    Subcommand("tune", "autotune shapes and store the best configs for strategy='auto'", tuner.add_arguments,
               tuner.run_cli, needs_gpu=True),
]


def register(sub: Subcommand) -> None:
    """Add (or replace, by name) a subcommand."""
    if not isinstance(sub, Subcommand):
        raise TypeError(f"register() takes a Subcommand; got {type(sub).__name__}")
    for i, existing in enumerate(SUBCOMMANDS):
        if existing.name == sub.name:
            SUBCOMMANDS[i] = sub
            return
    SUBCOMMANDS.append(sub)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, one subparser per entry of :data:`SUBCOMMANDS`."""
    parser = argparse.ArgumentParser(prog=PROG, description="Tiled matmul CUDA kernels: benchmark, explain, inspect.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    subs.required = True
    for sub in SUBCOMMANDS:
        p = subs.add_parser(sub.name, help=sub.help, description=sub.help)
        sub.configure(p)
        p.set_defaults(_subcommand=sub)
    return parser


def _error(command: str, message: str) -> int:
    print(f"{PROG} {command}: error: {message}", file=sys.stderr)
    return 2


def _check_precision_dtype(args: argparse.Namespace) -> None:
    """ValueError where an explicit ``--precision`` is one a ``--dtype`` given does not take
    (float64 takes auto or ieee)."""
    requests = getattr(args, "precision", None)
    dtypes = getattr(args, "dtype", None)
    if not requests or not dtypes:
        return
    for dt in dtypes.split(",") if isinstance(dtypes, str) else dtypes:
        for request in [requests] if isinstance(requests, str) else requests:
            _precision.check(request, dt)


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the CLI with `argv` (default ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits 2 with argparse's message on a usage error
    sub: Subcommand = args._subcommand
    try:
        _check_precision_dtype(args)  # a usage error, so before the GPU check
    except ValueError as exc:
        return _error(sub.name, str(exc))
    if sub.needs_gpu and not device.gpu_available():  # looked up per call, so tests can hide the GPU
        return _error(sub.name, NO_GPU_MESSAGE)
    try:
        return int(sub.handler(args) or 0)
    except (ValueError, TypeError) as exc:
        return _error(sub.name, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except bench.NoGPUError:
        return _error(sub.name, NO_GPU_MESSAGE)
    except KeyboardInterrupt:
        return _error(sub.name, "interrupted")
    except BrokenPipeError:  # `tiled-matmul source X | head`
        return 0


__all__ = ["main", "build_parser", "Subcommand", "SUBCOMMANDS", "register", "parse_set", "strategy_listing"]
