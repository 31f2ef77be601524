"""`python -m tui_bench`: the `tuibench` command, where the script is not on PATH."""

from tui_bench.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
