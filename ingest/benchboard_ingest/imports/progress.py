"""Progress of an import: Rich's bar on a terminal, a plain line per 1,000 runs otherwise
(CI logs), nothing with --quiet."""

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
    """Counts runs sent; shows them the way the output stream can show them."""

    def __init__(self, total: int, *, stream: TextIO, quiet: bool = False) -> None:
        self.total = total
        self.done = 0
        self._stream = stream
        self._quiet = quiet
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        if not quiet and stream.isatty():
            self._bar = Progress(
                TextColumn("importing runs"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(file=stream),
                transient=False,
            )

    def __enter__(self) -> ImportProgress:
        if self._bar is not None:
            self._bar.start()
            self._task = self._bar.add_task("import", total=self.total)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, runs: int) -> None:
        before, self.done = self.done, self.done + runs
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done)
        elif not self._quiet:
            for mark in range(before // LINE_EVERY + 1, self.done // LINE_EVERY + 1):
                self._line(f"imported {mark * LINE_EVERY:,}/{self.total:,} runs")
            if self.done == self.total and self.total % LINE_EVERY:
                self._line(f"imported {self.done:,}/{self.total:,} runs")

    def note(self, message: str) -> None:
        """A line above the bar (a retry), or a plain line."""
        if self._quiet:
            return
        if self._bar is not None:
            self._bar.console.print(message, markup=False, highlight=False)
        else:
            self._line(message)

    def _line(self, message: str) -> None:
        print(message, file=self._stream, flush=True)
