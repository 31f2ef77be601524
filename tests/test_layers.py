"""The layering, as data (pyproject.toml's [tool.importlinter]), and no import circles."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_no_upward_or_cross_import() -> None:
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle() -> None:
    # Lazy and TYPE_CHECKING imports count: a circle through them is still a tangle.
    graph = grimp.build_graph("tui_bench")
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    assert _cycles(edges) == []


# What runs a job: only the job layer (tui_bench/jobs/) builds them from what was asked.
ENGINE_BUILDERS = frozenset(
    {"EngineOptions", "SweepOptions", "RunController", "FleetController", "SweepRunner"}
)


def engine_built_in(package: Path) -> list[str]:
    """`file:line name` for each call of an engine builder in the modules under `package`."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in ENGINE_BUILDERS:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return found


def test_front_ends_never_build_the_engine_themselves() -> None:
    package = ROOT / "tui_bench"
    assert engine_built_in(package / "cli") == []
    assert engine_built_in(package / "ui") == []
    # The check can fail: the job layer itself builds them.
    assert any("EngineOptions" in hit for hit in engine_built_in(package / "jobs"))
