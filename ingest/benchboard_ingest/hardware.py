"""The machine a run was measured on, read from Linux and the Python runtime."""

from __future__ import annotations

import os
import platform
import socket
from pathlib import Path


def cpu_model(cpuinfo: str) -> str | None:
    """ "model name" from /proc/cpuinfo text (x86), or "Model"/"Hardware" (ARM)."""
    for key in ("model name", "Model", "Hardware"):
        for line in cpuinfo.splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip() == key and value.strip():
                return value.strip()
    return None


def memory_gb(meminfo: str) -> float | None:
    """MemTotal from /proc/meminfo text, in GiB rounded to 0.1."""
    for line in meminfo.splitlines():
        if line.startswith("MemTotal:"):
            kib = int(line.split()[1])
            return round(kib / 1024 / 1024, 1)
    return None


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def capture_hardware() -> dict[str, str | int | float]:
    """Contract `hardware`: name (the host name), cpu, cores, memory_gb, os, kernel."""
    hardware: dict[str, str | int | float] = {
        "name": socket.gethostname() or "unknown-host",
        "os": platform.system().lower() or "unknown",
        "kernel": platform.release(),
    }
    cpu = cpu_model(_read("/proc/cpuinfo")) or platform.processor()
    if cpu:
        hardware["cpu"] = cpu
    cores = os.cpu_count()
    if cores:
        hardware["cores"] = cores
    memory = memory_gb(_read("/proc/meminfo"))
    if memory is not None:
        hardware["memory_gb"] = memory
    return hardware
