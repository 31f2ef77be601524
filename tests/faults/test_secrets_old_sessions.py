"""A session saved before ab's way of printing a password was redacted (`redacted: true`,
no `redaction` version) still holds it in clear: it is redacted as it is read, so no export
or list shows it."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.conftest import FIXTURES
from tui_bench.cli.main import main
from tui_bench.redaction import MARK
from tui_bench.storage import store

PASSWORD = "pw-older-rules"


def test_a_session_redacted_by_older_rules_is_redacted_again(
    sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = str(FIXTURES / "h2load-1.52-h2c-n.txt")
    assert main(["import", fixture, "--json", "--save"]) == 0
    (path,) = sessions.glob("*.json")
    doc = orjson.loads(path.read_bytes())
    assert doc["redaction"] == 2
    del doc["redaction"]
    doc["warnings"] = [{"message": f"apr_sockaddr_info_get() for alice:{PASSWORD}@127.0.0.1"}]
    path.write_bytes(orjson.dumps(doc))
    capsys.readouterr()

    assert f"alice:{MARK}" in store.load(path).doc["warnings"][0]["message"]
    for fmt in ("md", "json"):
        assert main(["export", path.stem, "-f", fmt]) == 0
    out = capsys.readouterr().out
    assert PASSWORD not in out and f"alice:{MARK}" in out
