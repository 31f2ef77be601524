"""A run started again from a saved argv: its redacted values are refused in one line."""

from __future__ import annotations

import pytest

from tui_bench.cli.main import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["-H", "Authorization: redacted:0123abcd"], "Authorization is redacted:0123abcd"),
        (["http://u:redacted:0123abcd@127.0.0.1:1/"], "password in http://u@…"),
    ],
)
def test_a_redacted_value_is_refused_not_sent(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    urls = [] if argv[0].startswith("http") else ["http://127.0.0.1:1/"]
    assert main(["run", "--headless", "-d", "1", *argv, *urls]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "give the real value again" in err
