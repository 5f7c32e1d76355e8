"""The package's shape: strategies as units, no import cycles, no reaching into private names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tiled_matmul as tm

PKG = Path(tm.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path):
    """(imported module, imported names) for every import in the module, late ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod, [a.name for a in node.names]


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for mod, names in _imports(name, path):
            targets = [f"{mod}.{n}" for n in names if f"{mod}.{n}" in mods] or ([mod] if mod in mods else [])
            for t in targets:
                if t != name:
                    graph[name].add(t)
    return graph


def test_import_graph_has_no_cycles():
    """Late (function-level) imports count: a cycle is a cycle whenever it is taken."""
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(node, stack):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    # a package importing its own submodules (tiled_matmul -> tiled_matmul.api) is not a cycle
    # unless the submodule imports something that imports the package's __init__ back
    real = [c for c in cycles if not (len(c) == 3 and c[0] == c[2] and c[1].startswith(c[0] + "."))]
    assert not real, "import cycles: " + "; ".join(" -> ".join(c) for c in real)


def test_no_module_imports_private_names_of_another():
    bad = []
    for name, path in _modules().items():
        for mod, names in _imports(name, path):
            if mod.startswith("tiled_matmul") and mod != name:
                bad += [f"{name} imports {mod}.{n}" for n in names if n.startswith("_") and n != "__version__"]
    assert not bad, bad


@pytest.mark.parametrize("name", list(tm.STRATEGIES))
def test_a_strategy_is_one_template_and_one_module(name):
    entry = tm.STRATEGIES[name]
    module = entry.config_cls.__module__
    assert module == f"tiled_matmul.strategies.{name}", module
    assert entry.template.endswith(f"_{name}.cu.j2")
    from tiled_matmul.render import templates_dir

    assert (templates_dir() / entry.template).is_file()


def test_public_functions_do_not_share_names_with_submodules():
    mods = {m.rpartition(".")[2] for m in _modules() if m.count(".") == 1}
    clashes = [n for n in tm.__all__ if n in mods and callable(getattr(tm, n)) and not isinstance(getattr(tm, n), type(tm))]
    assert not clashes, clashes
