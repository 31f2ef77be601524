"""A warning about a run: what makes its numbers misleading, found as it ran or after."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Warning:
    # What kind of warning (a validity reason's code where it is one): `same-machine`.
    code: str
    message: str

    @classmethod
    def of(cls, saved: Mapping[str, Any]) -> Warning | None:
        """A warning as a session keeps it; None for what is not one (a damaged file)."""
        message = saved.get("message")
        if not isinstance(message, str):
            return None
        return cls(str(saved.get("code") or ""), message)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
