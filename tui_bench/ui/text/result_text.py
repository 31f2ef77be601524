"""The ended run's result as the live and replay screens show it: a row a figure, in the
order every view shows them (`report.text.ended_rows`), wrapped between its items."""

from __future__ import annotations

import textwrap

from rich.cells import cell_len
from rich.text import Text

from tui_bench.analysis.verdicts import Verdicts
from tui_bench.engine.live_state import LiveState
from tui_bench.records.verdict import Validity
from tui_bench.report.text import ended_rows, verdict_line
from tui_bench.ui.text.text_lines import pairs, stacked
from tui_bench.ui.tones import LABEL, Tones, verdict_style


def _row(label: str, value: str, width: int | None) -> Text:
    """`label value`; wider than `width`, the value goes on under itself, broken only after
    the commas between its items: left to the screen, `p99 18.88 ms` broke as `p99 18.88`
    and `ms` at the start of the next line, under the labels."""
    head = f"{label:<10} "
    items = value.split(", ")
    if width is None or cell_len(head + value) <= width:
        return pairs((f"{label:<10}", value))
    room = max(10, width - len(head))
    if len(items) == 1:
        # One item (a session's path, a sentence): between words, else where the room
        # ends, still under the values.
        return _note(label, value, LABEL, width)
    wrapped = [items[0]]
    for item in items[1:]:
        wrapped[-1] += ","
        if cell_len(f"{wrapped[-1]} {item}") > room:
            wrapped.append(item)
        else:
            wrapped[-1] += f" {item}"
    return Text.assemble((head, LABEL), ("\n" + " " * len(head)).join(wrapped))


def _note(label: str, message: str, style: str, width: int | None) -> Text:
    """`warning    message`, a long message wrapped under itself, not under the label."""
    head = f"{label:<10} "
    if width is None or cell_len(head + message) <= width:
        return Text.assemble((head, style), message)
    # textwrap measures in characters: right for the words of these rows.
    wrapped = textwrap.wrap(message, max(10, width - len(head)))
    return Text.assemble((head, style), ("\n" + " " * len(head)).join(wrapped))


def summary(state: LiveState, tones: Tones, width: int | None = None) -> Text:
    """The ended run's result, a row a figure; at `width`, each row's value wrapped between
    its items under the values (see `_row`)."""
    finished = state.finished
    if finished is None:
        return Text()
    head = Text.assemble(("status     ", LABEL), (finished.status, "bold"))
    if finished.message:
        head.append(f" — {finished.message}")
    judged = [validity(finished.validity, tones)] if finished.validity else []
    for label, text in verdict_rows(finished.verdicts, tones):
        # Aligned with the rows' values, as `validity   ` is.
        label.pad_right(11 - len(label))
        judged.append(Text.assemble(label, text))
    rows = [_row(label, value, width) for label, value in ended_rows(finished, state.spec)]
    notes = [_note("warning", w.message, tones.warning, width) for w in finished.warnings]
    return stacked(
        head,
        *judged,
        *rows,
        *notes,
    )


def verdict_rows(judged: Verdicts, tones: Tones) -> list[tuple[Text, str]]:
    """Each threshold and the baseline's judgement as the headless summary words them: a
    label in the tone of the outcome, and the line."""
    rows = []
    for verdict in judged.thresholds:
        tone = verdict_style("pass" if verdict.passed else "fail", tones)
        rows.append((Text("threshold", tone), verdict_line(verdict).removeprefix("threshold ")))
    baseline = judged.baseline
    if baseline is not None:
        bad = baseline.failed or bool(baseline.refused)
        tone = verdict_style("fail" if bad else "pass", tones)
        rows += [(Text("baseline", tone), line) for line in baseline.lines]
    return rows


def validity(judged: Validity, tones: Tones) -> Text:
    """`validity   INVALID  connections-dying, few-samples`: the verdict in words (never by
    colour alone), then the codes of why (the warnings below say it in full)."""
    line = Text.assemble(
        ("validity   ", LABEL), (judged.verdict.upper(), verdict_style(judged.verdict, tones))
    )
    if judged.reasons:
        line.append("  " + ", ".join(r.code for r in judged.reasons))
    return line
