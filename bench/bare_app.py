"""The toolkit's floor for `bench/home_frame.py`: a Textual app with nothing of tuibench in
it, one Static saying what the home screen's first frame is waited for by, and a Footer."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Static


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("Recent sessions")
        yield Footer()


if __name__ == "__main__":
    BareApp().run()
