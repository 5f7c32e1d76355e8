"""The strategy registry: name -> :class:`~tiled_matmul.strategy.Strategy`, in ladder order.

Everything else (the API, tests, benchmarks, the tuner, the CLI and the README table) loops over
:data:`STRATEGIES`. It is filled from the modules of :mod:`tiled_matmul.strategies`: each one
defines its config class and a ``STRATEGY`` entry, and the ladder is ordered by the number that
starts each template's name (``01_naive.cu.j2`` ... ``09_wgmma.cu.j2``).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from . import strategies as _package
from .dtypes import as_dtype
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


__all__ = ["STRATEGIES", "Strategy", "get", "strategies_for"]
