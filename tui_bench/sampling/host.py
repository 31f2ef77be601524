"""Facts about this machine that belong with every result: what the numbers were measured on."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def cpu_model(cpuinfo: str) -> str | None:
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return value.strip()
    return None


def host_facts() -> dict[str, Any]:
    return {
        "hostname": platform.node(),
        "cpu_model": cpu_model(_read("/proc/cpuinfo") or ""),
        "cores": os.cpu_count(),
        "kernel": platform.release(),
        "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "python": platform.python_version(),
    }
