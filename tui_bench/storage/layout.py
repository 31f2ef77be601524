"""Where the sessions live, how their files are named, and when a session started: what
listing the store from its index needs, without the session document's code (and numpy)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

SESSION_SUFFIX = ".json"
# A run's records while it runs, beside where its session file will be.
JOURNAL_SUFFIX = ".journal"


def sessions_dir() -> Path:
    """$TUIBENCH_SESSIONS, else $XDG_DATA_HOME/tuibench/sessions (~/.local/share/...)."""
    explicit = os.environ.get("TUIBENCH_SESSIONS")
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "tuibench" / "sessions"


def by_id(path: Path) -> str:
    """A file's session id: journals and session files sort together, by when they began."""
    return path.name.removesuffix(JOURNAL_SUFFIX).removesuffix(SESSION_SUFFIX)


def instant(value: Any) -> datetime | None:
    """A session's start time, comparable to any other's; None when unknown."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.astimezone()
