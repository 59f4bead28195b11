"""CPU time and memory of process trees, read from /proc (Linux)."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (field 3 onwards), or ``None``."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def tree(root: int) -> list[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat_fields(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(root: int) -> float:
    """CPU seconds used by the tree: the live processes, and the children the root reaped.

    A recycled gunicorn worker's time moves into the master's ``cutime`` when it is reaped,
    so the sum stays whole across restarts. Only the root's reaped children are counted (the
    others' are in some live process's own counts until it is reaped by the root).
    """
    total = 0
    for pid in tree(root):
        fields = stat_fields(pid)
        if fields is None:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
        if pid == root:
            total += int(fields[13]) + int(fields[14])  # cutime, cstime
    return total / TICKS


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent busy since boot (not idle, not iowait)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / TICKS


def memory_kib(root: int) -> int:
    """Proportional set size of the tree in KiB: shared pages counted once, not per process."""
    total = 0
    for pid in tree(root):
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Pss:"):
                total += int(line.split()[1])
                break
    return total


def pin(root: int, cores: set[int]) -> None:
    """Pin every process of the tree to ``cores`` (children forked later inherit it)."""
    for pid in tree(root):
        with contextlib.suppress(OSError):  # gone meanwhile
            os.sched_setaffinity(pid, cores)


@dataclass
class Meter:
    """CPU share of a tree over a window: a core is 1.0."""

    root: int
    started_cpu: float = 0.0
    started_at: float = 0.0

    def start(self, now: float) -> None:
        self.started_cpu, self.started_at = cpu_seconds(self.root), now

    def share(self, now: float) -> float:
        return (cpu_seconds(self.root) - self.started_cpu) / (now - self.started_at)
