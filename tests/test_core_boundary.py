"""The core runs headless: importing it must not pull in Textual or plotext. Only `ui` and
the `plot` command draw with them; the rest of the CLI loads them only when it opens the app."""

import pkgutil
import subprocess
import sys

import tui_bench


def core_modules() -> list[str]:
    found = pkgutil.walk_packages(tui_bench.__path__, "tui_bench.")
    drawing = ("tui_bench.ui", "tui_bench.cli.cmd_plot")
    return sorted(m.name for m in found if not m.name.startswith(drawing))


def test_core_does_not_import_textual() -> None:
    modules = core_modules()
    assert "tui_bench.report.text" in modules and "tui_bench.cli.cmd_run" in modules
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules)
    code += "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'plotext')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
