"""The generators of a run of several as its session keeps them (`generators`): each one's
figures, tool, command, spec and own session. Read from every version an earlier release
wrote."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui_bench.records.generator import GeneratorRun


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return str(value) if value else None


def generator_of(saved: Mapping[str, Any]) -> GeneratorRun:
    found = saved.get("tool")
    tool: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    argv = saved.get("argv")
    session = saved.get("session")
    result = session.get("result") if isinstance(session, Mapping) else None
    requests = (result.get("requests") or {}).get("total") if isinstance(result, Mapping) else None
    stream = saved.get("stream_bytes")
    return GeneratorRun(
        host=str(saved.get("host")),
        tool=_text(tool.get("name")),
        tool_path=_text(tool.get("path")),
        tool_version=_text(tool.get("version")),
        argv=tuple(str(a) for a in argv) if isinstance(argv, list) else None,
        rps=_number(saved.get("rps")),
        share=_number(saved.get("share")),
        client_cpu_mean_pct=_number(saved.get("client_cpu_mean_pct")),
        client_bound=bool(saved.get("client_bound")),
        start_skew_s=_number(saved.get("start_skew_s")),
        clock_offset_s=_number(saved.get("clock_offset_s")),
        stream_bytes=stream if isinstance(stream, int) else None,
        lost=_text(saved.get("lost")),
        requests=requests if isinstance(requests, int) else None,
    )


def generator_record(
    run: GeneratorRun, spec: Mapping[str, Any], session: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The generator as the run's session keeps it, beside its `spec` and own `session`."""
    return {
        "host": run.host,
        "tool": {"name": run.tool, "path": run.tool_path, "version": run.tool_version},
        "spec": dict(spec),
        "argv": list(run.argv) if run.argv is not None else None,
        "rps": run.rps,
        "share": run.share,
        "client_cpu_mean_pct": run.client_cpu_mean_pct,
        "client_bound": run.client_bound,
        "start_skew_s": run.start_skew_s,
        "clock_offset_s": run.clock_offset_s,
        "stream_bytes": run.stream_bytes,
        "lost": run.lost,
        "session": dict(session) if session else None,
    }
