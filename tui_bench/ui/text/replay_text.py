"""The replay screen's header: what was run, then where the playback is. Pure."""

from __future__ import annotations

from rich.text import Text

from tui_bench.engine.live_state import LiveState
from tui_bench.formats import fmt_clock

# The header's parts are the live header's, so both read alike.
from tui_bench.ui.text.monitor_text import load_pairs, run_title_of, segment_badges
from tui_bench.ui.text.text_lines import pairs, stacked


def replay_header(
    state: LiveState,
    *,
    session: str,
    tool_label: str,
    position: float,
    length: float,
    speed: str,
    playing: bool,
    note: str | None = None,
) -> Text:
    """What was run, then where the playback is and whether it moves (or `note` instead)."""
    spec = state.spec
    top = Text.assemble(
        (" REPLAY ", "reverse bold"),
        "  ",
        (session, "bold"),
        "  ",
        run_title_of(tool_label, state),
    )
    if note is not None or length <= 0:
        bottom = Text(note or "nothing to play: the session has no per-second series")
    else:
        # Beside a length past an hour, the position reads in hours too.
        at = fmt_clock(position, tenths=True, hours=length >= 3600)
        bottom = pairs(
            *(load_pairs(state.load_spec) if spec.urls else ()),
            ("at", f"{at} / {fmt_clock(length, tenths=True)}"),
            ("speed", speed),
        )
        bottom.append("  ")
        bottom.append_text(_playback(state, playing))
        bottom.append_text(Text.assemble(*segment_badges(state)))
    return stacked(top, bottom)


def _playback(state: LiveState, playing: bool) -> Text:
    if playing:
        return Text("▶ playing", "bold")
    if state.finished is not None:
        return Text(f"■ {state.finished.status}", "bold")
    return Text("‖ paused", "reverse bold")
