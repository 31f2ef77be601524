"""What a generator is, and how a saved run's generators are shown."""

from __future__ import annotations

from tui_bench.engine.generators import Generator, labels, saved_views, version_warning
from tui_bench.remote.ssh import SshHost
from tui_bench.runners.tools import Tool
from tui_bench.storage.session import Session


def test_different_versions_of_a_tool_are_named() -> None:
    same = [Generator(None, Tool("h2load", "/usr/bin/h2load", "1.52.0"))] * 2
    assert version_warning(same) is None
    mixed = [*same[:1], Generator(SshHost("c", "bench"), Tool("h2load", "/opt/h2load", "1.64.0"))]
    assert version_warning(mixed) == (
        "the generators run different versions of h2load (local 1.52.0, bench@c 1.64.0): "
        "figures may differ"
    )


def test_a_saved_run_shows_each_generator_at_its_end() -> None:
    doc = {
        "generators": [
            {"host": "c", "tool": {"name": "h2load", "version": "1.52.0"}, "rps": 900.0,
             "share": 0.9, "client_cpu_mean_pct": 40.0, "lost": None},
            {"host": "d", "tool": {"name": "h2load", "version": "1.52.0"}, "rps": 100.0,
             "share": 0.1, "client_cpu_mean_pct": None, "lost": "d: the connection was lost"},
        ]
    }  # fmt: skip
    seen = saved_views(Session(doc))
    assert seen is not None
    assert [(g.label, g.rps, g.share, g.cpu_pct, g.lost) for g in seen.generators] == [
        ("c", 900.0, 0.9, 40.0, None),
        ("d", 100.0, 0.1, None, "d: the connection was lost"),
    ]
    assert saved_views(Session({})) is None


def test_two_generators_on_one_host_are_named_apart() -> None:
    tool = Tool("h2load", "/usr/bin/h2load", "1.52.0")
    host = Generator(SshHost("host0"), tool)
    other = Generator(SshHost("host1"), tool)
    assert labels([host, other, host, Generator(None, tool), host]) == [
        "host0",
        "host1",
        "host0#2",
        "local",
        "host0#3",
    ]


def test_different_versions_on_one_host_are_each_named() -> None:
    host = SshHost("host0")
    mixed = [
        Generator(host, Tool("h2load", "/usr/bin/h2load", "1.52.0")),
        Generator(host, Tool("h2load", "/opt/h2load", "1.64.0")),
    ]
    assert version_warning(mixed) == (
        "the generators run different versions of h2load (host0 1.52.0, host0#2 1.64.0): "
        "figures may differ"
    )
