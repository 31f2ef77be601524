"""What the command line says of each generator of a run of several."""

from __future__ import annotations

from tui_bench.records.generator import GeneratorRun
from tui_bench.report.text import generator_lines


def test_one_line_per_generator_unknown_as_a_dash() -> None:
    assert generator_lines(
        [
            GeneratorRun("bench-c", rps=17216.4, share=0.52, client_cpu_mean_pct=93.2,
                         client_bound=True),
            GeneratorRun("bench-d",
                         lost="bench-d: the connection to the generator was lost"),
        ]
    ) == [
        "generator bench-c  17,216 req/s 52%  cpu 93%  client-bound",
        "generator bench-d  – req/s –  cpu –  lost (bench-d: the connection to the generator "
        "was lost)",
    ]  # fmt: skip
