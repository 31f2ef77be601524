"""Secrets planted in every field a load generator echoes (the URL's password, a query
token, the Authorization and Cookie headers), on real runs of h2load, wrk and ab against
nginx on loopback: none reaches standard error, `--json`, the session, the exports, the
sessions list or a comparison, whatever form the tool prints it in (ab prints
`Document Path: /?access_token=…`)."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from tests.conftest import need
from tests.integration.test_cli_real_tools import tuibench
from tui_bench.cli.main import main
from tui_bench.demo.nginx_target import DemoTarget
from tui_bench.redaction import MARK

pytestmark = pytest.mark.real


def planted() -> dict[str, str]:
    return {
        "password": f"pw{secrets.token_hex(8)}",
        "query": f"qt{secrets.token_hex(8)}",
        "authorization": f"au{secrets.token_hex(8)}",
        "cookie": f"ck{secrets.token_hex(8)}",
    }


def run(tool: str, url: str, plant: dict[str, str]) -> str:
    """The run's standard output and error, with every field planted."""
    url = url.replace("http://", f"http://bench:{plant['password']}@", 1)
    size = ["-d", "1"] if tool == "wrk" else ["-n", "200"]
    proc = tuibench(
        "run", "--headless", "--json", "--tool", tool, "-c", "2", *size, "--name", "planted",
        "-H", f"Authorization: Bearer {plant['authorization']}",
        "-H", f"Cookie: session={plant['cookie']}",
        f"{url}?access_token={plant['query']}",
    )  # fmt: skip
    assert proc.stdout.strip().startswith("{"), proc.stderr
    return proc.stdout + proc.stderr


def assert_clean(text: str, plant: dict[str, str], where: str) -> None:
    for field, secret in plant.items():
        assert secret not in text, f"the {field} in {where}"


@pytest.mark.parametrize("tool", ["h2load", "wrk", "ab"])
def test_no_planted_secret_leaves_through_any_output(
    tool: str,
    nginx: DemoTarget,
    sessions: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    need(tool)
    plant = planted()
    url = nginx.urls["h2c" if tool == "h2load" else "h1"]
    # The URL's credentials reach every tool as a header, redacted like the others.
    printed = run(tool, url, plant)
    assert '"succeeded":0' not in printed, printed
    assert_clean(printed, plant, f"what {tool} runs printed")

    saved = sorted(sessions.glob("*.json"))
    assert saved
    raw = "".join(p.read_text() for p in saved)
    assert_clean(raw, plant, "the session files")
    assert f"access_token={MARK}" in raw  # ab's Document Path, h2load's and wrk's argv
    ids = [p.stem for p in saved]
    written = []
    for fmt in ("json", "md", "csv"):
        for session in ids:
            assert main(["export", session, "-f", fmt]) == 0
            target = tmp_path / f"{session}.{fmt}"
            assert main(["export", session, "-f", fmt, "-o", str(target)]) == 0
            written.append(target.read_text())
    assert main(["sessions"]) == main(["sessions", "--json"]) == 0
    assert main(["compare", ids[0], ids[-1], "--format", "md"]) == 0
    out, err = capsys.readouterr()
    assert_clean("\n".join([out, err, *written]), plant, "the exports, lists and comparison")
    assert f"bench:{MARK}" in out  # the URL as the comparison and the exports show it
