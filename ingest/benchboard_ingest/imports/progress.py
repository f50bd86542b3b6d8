"""Progress of an import, files read then runs sent: Rich's bars on a terminal, a plain line
per 1,000 files or runs otherwise (CI logs), nothing with --quiet."""

from __future__ import annotations

from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

LINE_EVERY = 1_000


class ImportProgress:
    """Shows counts the way the output stream can show them."""

    def __init__(self, *, stream: TextIO, quiet: bool = False) -> None:
        self._stream = stream
        self._quiet = quiet
        self._bar: Progress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._done: dict[str, int] = {}
        if not quiet and stream.isatty():
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(file=stream),
            )

    def __enter__(self) -> ImportProgress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()

    def files_read(self, done: int, total: int) -> None:
        self._count("files", "reading files", done, total, lines=total >= LINE_EVERY)

    def runs_sent(self, done: int, total: int) -> None:
        self._count("runs", "importing runs", done, total, lines=True)

    def note(self, message: str) -> None:
        """A line above the bars (a retry), or a plain line."""
        if self._quiet:
            return
        if self._bar is not None:
            self._bar.console.print(message, markup=False, highlight=False)
        else:
            self._line(message)

    def _count(self, kind: str, label: str, done: int, total: int, *, lines: bool) -> None:
        before, self._done[kind] = self._done.get(kind, 0), done
        if self._bar is not None:
            if kind not in self._tasks:
                self._tasks[kind] = self._bar.add_task(label, total=total)
            self._bar.update(self._tasks[kind], completed=done)
        elif not self._quiet and lines:
            verb = "read" if kind == "files" else "imported"
            for mark in range(before // LINE_EVERY + 1, done // LINE_EVERY + 1):
                self._line(f"{verb} {mark * LINE_EVERY:,}/{total:,} {kind}")
            if done == total and total % LINE_EVERY:
                self._line(f"{verb} {done:,}/{total:,} {kind}")

    def _line(self, message: str) -> None:
        print(message, file=self._stream, flush=True)
