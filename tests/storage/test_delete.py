"""Deleting a session file: only files of the store, with one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_bench.errors import SessionError
from tui_bench.storage import store


def test_delete_removes_a_session_file_of_the_store(tmp_path: Path) -> None:
    session = tmp_path / "20261121-120000-000-h2load-x.json"
    session.write_text("{}")
    store.delete(session, tmp_path)
    assert not session.exists()


def test_delete_uses_the_configured_store(sessions: Path) -> None:
    sessions.mkdir()
    session = sessions / "a.json"
    session.write_text("{}")
    store.delete(session)
    assert not session.exists()


@pytest.mark.parametrize("name", ["elsewhere/a.json", "notes.txt", "sub/../../a.json"])
def test_delete_refuses_what_is_not_a_session_file_of_the_store(tmp_path: Path, name: str) -> None:
    directory = tmp_path / "sessions"
    for folder in (directory / "sub", directory / "elsewhere"):
        folder.mkdir(parents=True)
    target = directory / name
    target.write_text("{}")
    with pytest.raises(SessionError, match="not deleted") as caught:
        store.delete(target, directory)
    assert "\n" not in str(caught.value)
    assert target.exists()


def test_delete_removes_a_link_not_its_target(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    directory.mkdir()
    outside = tmp_path / "kept.json"
    outside.write_text("{}")
    link = directory / "linked.json"
    link.symlink_to(outside)
    store.delete(link, directory)
    assert not link.exists() and outside.exists()


def test_delete_of_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no such session file"):
        store.delete(tmp_path / "gone.json", tmp_path)
