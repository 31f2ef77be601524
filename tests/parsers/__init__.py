"""Golden tests of the pure parsers: captured real outputs in tests/fixtures, no tool run."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def capture(name: str) -> str:
    """A run's stdout followed by its stderr, as the engine hands them to the parsers."""
    stderr = FIXTURES / f"{name}.stderr.txt"
    return fixture(f"{name}.txt") + (stderr.read_text() if stderr.exists() else "")
