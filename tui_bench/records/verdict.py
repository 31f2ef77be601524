"""Whether a run's numbers can be trusted: valid, suspect or invalid, with the reasons. The
judging is tui_bench.validity's; this is what it gives and what a session keeps of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Verdict = Literal["valid", "suspect", "invalid"]
VERDICTS: tuple[Verdict, ...] = ("valid", "suspect", "invalid")

# Connections that could not be opened: the load was fewer connections than asked.
CONNECT_ERRORS = "connect-errors"
# Most answers were redirects (a 3xx), which no tool follows.
REDIRECTED = "redirected"
# Why a run was stopped early: the server went away, or answered nothing for too long.
SERVER_LOST = "server-lost"
STALL_TIMEOUT = "stall-timeout"
CUT_SHORT = (SERVER_LOST, STALL_TIMEOUT)
# The request log's file system filled up: the seconds after it are unknown.
LOG_LOST = "log-lost"

# The warnings that make a run invalid or suspect; the others (same-machine) are notes.
WARNING_VERDICTS: Mapping[str, Verdict] = {
    "connections-dying": "invalid",
    # Too few requests for the p99 shown (analysis.warnings.MIN_SAMPLES_FOR_P99).
    "few-samples": "suspect",
    "protocol-mismatch": "suspect",
    "client-bound": "suspect",
    # A steered run's segment past capacity: that segment is invalid, the run's others stand.
    "segment-rate-not-held": "suspect",
    # One of several generators dropped out: the load was less than asked from then on.
    "generator-lost": "suspect",
    # Connections waited on a stalled server: closed-loop percentiles understate it.
    "stall": "suspect",
    # The URL redirects: the run measured the redirect, not the page.
    REDIRECTED: "suspect",
    SERVER_LOST: "invalid",
    LOG_LOST: "suspect",
    STALL_TIMEOUT: "invalid",
}


@dataclass(frozen=True)
class Reason:
    code: str
    message: str
    verdict: Verdict

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Validity:
    verdict: Verdict
    reasons: tuple[Reason, ...] = ()

    @classmethod
    def of(cls, reasons: Iterable[Reason]) -> Validity:
        """The worst verdict among `reasons` (valid when there is none), each code once."""
        unique = tuple({r.code: r for r in reasons}.values())
        worst = max((VERDICTS.index(r.verdict) for r in unique), default=0)
        return cls(VERDICTS[worst], unique)

    @property
    def is_valid(self) -> bool:
        return self.verdict == "valid"

    @property
    def is_invalid(self) -> bool:
        return self.verdict == "invalid"

    def lines(self) -> list[str]:
        """One line per reason, as stderr and summaries show them."""
        return [f"{r.verdict}: {r.message} ({r.code})" for r in self.reasons]

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reasons": [r.to_dict() for r in self.reasons]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Validity:
        verdict = data["verdict"]
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}")
        reasons = tuple(
            Reason(str(r["code"]), str(r["message"]), severity(str(r["code"]), verdict))
            for r in data.get("reasons") or ()
        )
        return cls(verdict, reasons)


def severity(code: str, verdict: Verdict) -> Verdict:
    """A stored reason's own verdict: known codes have theirs, others take the run's."""
    return CODE_VERDICTS.get(code) or WARNING_VERDICTS.get(code) or verdict


CODE_VERDICTS: Mapping[str, Verdict] = {
    "tool-failed": "invalid",
    "unreachable": "invalid",
    "interrupted": "invalid",
    "errors": "invalid",
    "short-run": "suspect",
    "warm-up-not-applied": "suspect",
    "rate-not-held": "invalid",
    "refused": "invalid",
    CONNECT_ERRORS: "suspect",
    "no-runs": "invalid",
    "incomplete-runs": "suspect",
}
