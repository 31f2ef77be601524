"""The core runs headless: importing it must not pull in Textual."""

import subprocess
import sys

CORE = [
    "tui_bench.engine.controller",
    "tui_bench.parsers.detect",
    "tui_bench.runners.invocation",
    "tui_bench.sampling.sampler",
    "tui_bench.storage.store",
    "tui_bench.analysis.warnings",
    "tui_bench.cli.commands",
    "tui_bench.analysis.compare",
    "tui_bench.analysis.stats",
    "tui_bench.analysis.thresholds",
    "tui_bench.analysis.significance",
    "tui_bench.analysis.sweep_charts",
    "tui_bench.storage.sweep_export",
    "tui_bench.values",
    "tui_bench.engine.replay",
    "tui_bench.engine.sweep",
    "tui_bench.storage.catalog",
    "tui_bench.storage.recent",
    "tui_bench.engine.sweep_settings",
]


def test_core_does_not_import_textual() -> None:
    code = "import sys\n" + "".join(f"import {m}\n" for m in CORE)
    code += "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'plotext')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
