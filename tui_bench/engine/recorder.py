"""The one writer of how a run, a run of several generators and a sweep end: the typed end
record into the journal, the verdicts judged on the finished session, and the session file
written once, whole."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.events import RunFinished
from tui_bench.records.warning import Warning
from tui_bench.storage.atomic import store_error
from tui_bench.storage.journal import JournalWriter
from tui_bench.storage.session import Session
from tui_bench.storage.session_records import RunEnd, SweepEnd
from tui_bench.storage.store import SESSION_SUFFIX, finished_session, write_session

# Judges a finished session (its thresholds, its baseline) before it is written.
Judge = Callable[[Session], Verdicts]
NOT_SAVED = "the run is not saved"


@dataclass(frozen=True)
class Recorded:
    path: Path
    session: Session
    verdicts: Verdicts
    # Why the session could not be saved (one line naming the store and its free space);
    # None once it is.
    unsaved: str | None = None


def record_end(journal: JournalWriter, end: RunEnd | SweepEnd, judge: Judge | None) -> Recorded:
    """Close `journal` with `end`, judge the session it makes and write it. A store that
    cannot take it leaves the session whole in memory, for its figures to be shown."""
    journal.write("end", end.to_record())
    journal.close()
    found: list[Verdicts] = []

    def judged(session: Session) -> dict[str, object]:
        found.append(judge(session) if judge is not None else Verdicts())
        return found[0].end_fields()

    session = finished_session(journal.path, judged, journal.records())
    path, store = journal.path.with_suffix(SESSION_SUFFIX), journal.path.parent
    try:
        if journal.failure is not None:
            raise journal.failure
        write_session(journal.path, session)
    except OSError as exc:
        if journal.failure is not None:
            journal.discard()
            return Recorded(path, session, found[0], str(store_error(store, exc, NOT_SAVED)))
        # Whole, end and all: it becomes the session once the store has room.
        kept = f"its journal {journal.path.name} is kept, to be saved once there is room"
        unsaved = f"{store_error(store, exc, NOT_SAVED + ' yet')}; {kept}"
        return Recorded(path, session, found[0], unsaved)
    return Recorded(path, session, found[0])


async def end_of_run(
    journal: JournalWriter,
    end: RunEnd,
    warnings: Sequence[Warning],
    judge: Judge | None,
    warn: Callable[[Warning], None],
) -> tuple[RunFinished, Recorded]:
    """The one end of a run, of one generator or several: its warnings into the journal and
    told, its end record written and judged, and the event that carries it all."""
    for warning in warnings:
        journal.write("warning", asdict(warning))
        warn(warning)
    # Judging against a baseline imports scipy and resamples: not on the event loop.
    recorded = await asyncio.to_thread(record_end, journal, end, judge)
    saved = await asyncio.to_thread(recorded.session.as_saved)
    finished = RunFinished(
        end.status,
        end.exit_code,
        end.result,
        recorded.path,
        end.message,
        end.validity,
        end.resources or {},
        recorded.verdicts,
        generators=recorded.session.generators,
        unsaved=recorded.unsaved,
        warnings=tuple(warnings),
        session=saved,
    )
    return finished, recorded
