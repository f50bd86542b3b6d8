"""Finding and reading the files of a history: the only part of an import that does I/O.

- gab: `data.js`/`data.json` files, or directories holding them (a gh-pages checkout).
- asv: a `results/` directory (machine folders, `benchmarks.json` at its root), one
  machine's folder, or one results file; `machine.json` and `benchmarks.json` are
  looked for where asv writes them.
- conbench: JSON files or directories of them (result pages, payloads, Run objects).
- lnt: report files or directories of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from ..errors import ParseError
from ..model import ParseContext, Skipped, SourceRun
from ..parsers import asv, conbench, gab, lnt

IMPORT_FORMATS = ("gab", "asv", "conbench", "lnt")
_ASV_SIDECARS = {"machine.json", "benchmarks.json"}


class SourceNotFound(Exception):
    """A path that does not exist or holds no file of the format."""


@dataclass
class History:
    """Every run read from the paths, and the files that could not be read."""

    runs: list[SourceRun] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: int = 0


def read_history(
    fmt: str,
    paths: list[str],
    *,
    context: ParseContext,
    skip_broken: bool = False,
    on_file: Callable[[int, int], None] | None = None,
) -> History:
    """Read every file of `paths`; a broken file stops the import (ParseError) unless
    `skip_broken`, when it is reported as skipped instead."""
    jobs = list(_jobs(fmt, [Path(p) for p in paths], context))
    history = History(files=len(jobs))
    for done, job in enumerate(jobs, start=1):
        try:
            history.runs += job.read()
        except ParseError as error:
            if not skip_broken:
                raise
            history.skipped.append(Skipped(error.file, f"unreadable: {error}"))
        if on_file:
            on_file(done, len(jobs))
    if fmt == "conbench":
        history.runs = conbench.join_runs(history.runs)
    return history


@dataclass(frozen=True)
class _Job:
    path: Path
    parse: Callable[[str], list[SourceRun]]

    def read(self) -> list[SourceRun]:
        return self.parse(read_text(self.path))


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ParseError(str(path), f"byte {error.start}", "UTF-8 text") from None
    except OSError as error:
        raise SourceNotFound(f"cannot read {path}: {error.strerror}") from None


def _jobs(fmt: str, paths: list[Path], context: ParseContext) -> Iterator[_Job]:
    for path in paths:
        if not path.exists():
            raise SourceNotFound(f"{path} does not exist")
        if fmt == "asv":
            yield from _asv_jobs(path, context)
            continue
        files = _files(path, ("data.js", "data.json") if fmt == "gab" else ("*.json",))
        if not files:
            raise SourceNotFound(f"{path} holds no {fmt} file")
        for file in files:
            yield _Job(file, _reader(fmt, replace(context, source=str(file))))


def _reader(fmt: str, context: ParseContext) -> Callable[[str], list[SourceRun]]:
    if fmt == "gab":
        return lambda raw: gab.read_history(raw, context=context)
    if fmt == "conbench":
        return lambda raw: conbench.read_runs(raw, context=context)
    if fmt == "lnt":
        return lambda raw: [lnt.read_report(raw, context=context)]
    raise ValueError(f"not an import format: {fmt}")


def _files(path: Path, patterns: tuple[str, ...]) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted({file for pattern in patterns for file in path.rglob(pattern)})


def _asv_jobs(path: Path, context: ParseContext) -> Iterator[_Job]:
    """Results files with the `benchmarks.json` of their results root and the
    `machine.json` of their machine folder."""
    if path.is_file():
        machines, root = {path.parent: [path]}, path.parent.parent
    elif (path / "machine.json").is_file():
        machines, root = {path: _asv_results(path)}, path.parent
    else:
        root = path
        machines = {folder: _asv_results(folder) for folder in sorted(path.iterdir())}
    machines = {folder: files for folder, files in machines.items() if files}
    if not machines:
        raise SourceNotFound(f"{path} holds no asv results file (<machine>/<commit>-<env>.json)")
    benchmarks_file = root / "benchmarks.json"
    benchmarks = (
        asv.read_benchmarks(read_text(benchmarks_file), source=str(benchmarks_file))
        if benchmarks_file.is_file()
        else None
    )
    for folder, files in machines.items():
        machine_file = folder / "machine.json"
        hardware = (
            asv.read_machine(read_text(machine_file), source=str(machine_file))
            if machine_file.is_file()
            else None
        )
        for file in files:
            read = partial(
                _read_asv,
                context=replace(context, source=str(file)),
                benchmarks=benchmarks,
                hardware=hardware,
            )
            yield _Job(file, read)


def _read_asv(
    raw: str,
    *,
    context: ParseContext,
    benchmarks: dict[str, asv.AsvBenchmark] | None,
    hardware: dict[str, str | int | float] | None,
) -> list[SourceRun]:
    return [asv.read_results(raw, context=context, benchmarks=benchmarks, hardware=hardware)]


def _asv_results(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(f for f in folder.glob("*.json") if f.name not in _ASV_SIDECARS)
