"""The strategy registry: name -> :class:`~tiled_matmul.strategy.Strategy`, in ladder order.

Everything else (the API, tests, benchmarks, the tuner, the CLI and the README table) loops over
:data:`STRATEGIES`. It is filled from the modules of :mod:`tiled_matmul.strategies`: each one
defines its config class and a ``STRATEGY`` entry, and the ladder is ordered by the number that
starts each template's name (``01_naive.cu.j2`` ... ``09_wgmma.cu.j2``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from pathlib import Path
from typing import Any, Callable, Iterable

from jinja2 import TemplateError

from . import strategies as _package
from .configs import Config
from .dtypes import as_dtype
from .render import kernel_name, render
from .strategy import Strategy


def _discover() -> dict[str, Strategy]:
    found = []
    for info in pkgutil.iter_modules(_package.__path__):
        module = importlib.import_module(f"{_package.__name__}.{info.name}")
        entry = getattr(module, "STRATEGY", None)
        if not isinstance(entry, Strategy):
            raise TypeError(f"strategy module {module.__name__} must define STRATEGY = Strategy.of(...)")
        found.append(entry)
    found.sort(key=lambda s: (s.template, s.name))
    names = [s.name for s in found]
    if len(set(names)) != len(names):
        raise ValueError(f"two strategy modules register the same name: {sorted(names)}")
    return {s.name: s for s in found}


STRATEGIES: dict[str, Strategy] = _discover()


def get(name: Any) -> Strategy:
    """The registry entry for `name`; ValueError listing the strategies otherwise."""
    try:
        return STRATEGIES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown strategy {name!r}; registered strategies: {', '.join(STRATEGIES)}"
        ) from None


def strategies_for(dtype: Any) -> list[str]:
    """The registered strategies that compute `dtype`."""
    dt = as_dtype(dtype)
    return [n for n, e in STRATEGIES.items() if e.supports(dt)]




# ---------------------------------------------------------------------------------------------
# strategies registered from user code
# ---------------------------------------------------------------------------------------------
_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
#: called with a strategy's name whenever it is registered, replaced or unregistered, so that
#: what caches per strategy (compiled kernels, kernel objects, auto's choices) forgets it
_listeners: list[Callable[[str], None]] = []


def on_change(listener: Callable[[str], None]) -> None:
    """Call `listener(name)` whenever the strategy `name` is registered, replaced or removed."""
    _listeners.append(listener)


def _changed(name: str) -> None:
    for listener in _listeners:
        listener(name)


def _template_text(template: "str | os.PathLike") -> str:
    """A template given as a path (an existing file) or as the template's text."""
    if isinstance(template, os.PathLike):
        return Path(template).read_text(encoding="utf-8")
    if not isinstance(template, str):
        raise TypeError(f"template must be a path or the template text; got {type(template).__name__}")
    if "\n" not in template and Path(template).is_file():
        return Path(template).read_text(encoding="utf-8")
    if "\n" not in template:
        raise ValueError(f"template {template!r} is neither an existing file nor template text")
    return template


def register_strategy(name: str, *, template: "str | os.PathLike", config: type[Config],
                      default: "Config | None" = None, search_space: Iterable[Config] = (),
                      summary: str = "", tunable: bool = True, replace: bool = False) -> Strategy:
    """Add a strategy from user code; the registry then treats it like a built-in rung.

    `template` is a jinja2 template (a file path or its text) following the built-in ones'
    conventions: ``extern "C" __global__ void {{ KERNEL_NAME }}(const T* A, const T* B, T* C,
    int M, int N, int K, int flags)``, params in upper case, and the partials of ``kernels/``
    available to ``{% include %}``. `config` is a :class:`~tiled_matmul.configs.Config` subclass
    whose ``STRATEGY`` is `name`; its class defaults are the default config unless `default` is
    given. `matmul(strategy=name)`, `kernel`, `source`, `bench`, `tune`, `explain` and (once
    tuned into the user database) `auto` all see it.

    Raises ValueError for a bad or taken name (built-ins can't be replaced; a user strategy can,
    with ``replace=True``), a config that breaks the contract, or a template that does not
    render; TypeError for arguments of the wrong kind. Nothing is registered when it raises.
    """
    if not isinstance(name, str) or not _NAME.match(name) or name == "auto":
        raise ValueError(f"strategy name must be lower-case letters, digits and _ (not 'auto'); got {name!r}")
    old = STRATEGIES.get(name)
    if old is not None and (old.builtin or not replace):
        raise ValueError(f"strategy {name!r} is already registered"
                         + (" (a built-in strategy)" if old.builtin else "; pass replace=True to replace it"))
    if not (isinstance(config, type) and issubclass(config, Config)):
        raise TypeError(f"config must be a Config subclass; got {config!r}")
    if config.STRATEGY != name:
        raise ValueError(f"{config.__name__}.STRATEGY is {config.STRATEGY!r}; set it to {name!r} "
                         f"(STRATEGY: ClassVar[str] = {name!r})")
    default = config() if default is None else default
    space = tuple(search_space)
    for cfg in (default, *space):
        if type(cfg) is not config:
            raise TypeError(f"default and search_space must be {config.__name__} instances; got {cfg!r}")
    try:
        default.block(), default.grid(64, 64), default.tile_mn
    except NotImplementedError:
        raise ValueError(f"{config.__name__} must implement tile_mn, block() and grid() "
                         "(see tiled_matmul.configs.Config)") from None
    entry = Strategy(name=name, template=f"<{name}>", config_cls=config, default=default,
                     search_space=space, summary=summary, tunable=tunable,
                     template_text=_template_text(template), builtin=False)
    dt = config.SUPPORTED_DTYPES[0]
    try:
        source = render(entry, default, dt)
    except TemplateError as exc:
        raise ValueError(f"the template of strategy {name!r} does not render: {type(exc).__name__}: {exc}") from None
    if kernel_name(name, default, dt) not in source:
        raise ValueError(f"the template of strategy {name!r} must define the kernel {{{{ KERNEL_NAME }}}}")
    STRATEGIES[name] = entry
    _changed(name)
    return entry


def unregister_strategy(name: str) -> None:
    """Remove a strategy registered from user code (ValueError for built-ins and unknown names)."""
    entry = get(name)
    if entry.builtin:
        raise ValueError(f"strategy {name!r} is built in and cannot be unregistered")
    del STRATEGIES[name]
    _changed(name)


__all__ = ["STRATEGIES", "Strategy", "get", "strategies_for", "register_strategy", "unregister_strategy", "on_change"]
