"""The one writer of how a run, a run of several generators and a sweep end: the typed end
record into the journal, the verdicts judged on the finished session, and the session file
written once, whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session import RunEnd, Session, SweepEnd
from tui_bench.storage.store import finalize_judged

# Judges a finished session (its thresholds, its baseline) before it is written.
Judge = Callable[[Session], Verdicts]


@dataclass(frozen=True)
class Recorded:
    path: Path
    session: Session
    verdicts: Verdicts


def record_end(journal: JournalWriter, end: RunEnd | SweepEnd, judge: Judge | None) -> Recorded:
    """Close `journal` with `end`, judge the session it makes and write it."""
    journal.write("end", end.to_record())
    journal.close()
    found: list[Verdicts] = []

    def judged(session: Session) -> dict[str, object]:
        found.append(judge(session) if judge is not None else Verdicts())
        return found[0].end_fields()

    path, session = finalize_judged(journal.path, judged)
    return Recorded(path, session, found[0])
