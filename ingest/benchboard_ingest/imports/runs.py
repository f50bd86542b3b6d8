"""Runs as another tracker recorded them, made into contract v1 runs.

Each run's `id` is a UUID5 of the format, the Benchboard suite and the source's own keys
of the run, so importing the same history again sends the same ids and bodies, and the
service answers "existing" for every run it already holds.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..model import ParseContext, Skipped, SourceRun
from ..overrides import apply_overrides
from ..run import MAX_NAME, SUITE_SLUG, RunOptions, build_run, fitted_hardware, fitted_map
from ..vocabulary import UNKNOWN_LANGUAGE, result_identity, unit_info

# Fixed forever: changing it would give every imported run a new id.
IMPORT_NAMESPACE = uuid.UUID("5b0c3e0e-6f7d-4f0c-9a55-4e2f3b1d9a15")
MAX_SUITE = 100
_SLUG_CHARS = re.compile(r"[^a-z0-9._-]+")


class ImportUsageError(Exception):
    """The history needs a flag the command line did not give."""


@dataclass(frozen=True)
class ImportOptions:
    """What the command line says about every imported run."""

    format: str
    suite: str
    context: ParseContext = field(default_factory=ParseContext)
    params: dict[str, Any] = field(default_factory=dict)
    source_suite: str | None = None
    hardware_name: str | None = None
    git_repo: str | None = None
    git_branch: str | None = None


@dataclass
class ContractRuns:
    """The runs to send, chronological, and what was left out on the way."""

    runs: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def result_count(self) -> int:
        return sum(len(run["results"]) for run in self.runs)


def run_id(fmt: str, suite: str, key: tuple[str, ...]) -> str:
    """The deterministic id of a source's run imported into `suite`."""
    return str(uuid.uuid5(IMPORT_NAMESPACE, "\x1f".join((fmt, suite, *key))))


def contract_runs(sources: list[SourceRun], options: ImportOptions) -> ContractRuns:
    """Contract runs for `sources`: suite, machine and overrides applied, one unit per
    series, runs without any result left out (reported), oldest first."""
    if not SUITE_SLUG.match(options.suite):
        raise ImportUsageError(f"--suite must be a slug like 'my-benchmarks': {options.suite!r}")
    sources = _selected(sources, options.source_suite)
    suites = _suite_names(sources, options)
    _require_machine(sources, options)
    out = ContractRuns()
    units: dict[str, str] = {}
    for source in sorted(sources, key=lambda s: (s.started_at, s.key)):
        out.skipped += source.skipped
        suite = suites[source.group]
        hardware = _hardware(source, options)
        results = apply_overrides(
            [_fitted(dict(r)) for r in source.results], options.context, params=options.params
        )
        results = _one_unit_per_series(results, suite, str(hardware["name"]), units, out)
        label = _label(source, suite)
        if not results:
            why = "; ".join(s.reason for s in source.skipped[:2]) or "it holds no figure"
            out.skipped.append(Skipped(label, f"run left out, no result left ({why})"))
            continue
        out.runs.append(_run(source, results, suite, hardware, options))
    _require_language(out.runs)
    return out


def _selected(sources: list[SourceRun], source_suite: str | None) -> list[SourceRun]:
    if source_suite is None:
        return sources
    chosen = [source for source in sources if source.group == source_suite]
    if not chosen:
        names = sorted({s.group for s in sources if s.group})
        raise ImportUsageError(
            f"no suite {source_suite!r} in the history; it holds: {', '.join(names)}"
        )
    return chosen


def _suite_names(sources: list[SourceRun], options: ImportOptions) -> dict[str | None, str]:
    """The source's suites onto Benchboard suites: all into `--suite` when there is one,
    else `<suite>.<its own name as a slug>` each."""
    groups = sorted({source.group for source in sources}, key=lambda g: g or "")
    if len(groups) <= 1:
        return {group: options.suite for group in groups}
    return {group: _sub_suite(options.suite, group or "") for group in groups}


def _sub_suite(suite: str, group: str) -> str:
    name = f"{suite}.{_SLUG_CHARS.sub('-', group.lower()).strip('-._') or 'suite'}"
    if len(name) <= MAX_SUITE:
        return name
    digest = hashlib.sha256(group.encode()).hexdigest()[:8]
    return f"{name[: MAX_SUITE - 9].rstrip('-._')}-{digest}"


def _require_machine(sources: list[SourceRun], options: ImportOptions) -> None:
    if options.hardware_name is None and any(s.hardware is None for s in sources):
        raise ImportUsageError(
            f"this {options.format} history does not record the machine it ran on; "
            "name it with --hardware-name (e.g. the CI runner's label)"
        )


def _hardware(source: SourceRun, options: ImportOptions) -> dict[str, Any]:
    hardware: dict[str, Any] = dict(source.hardware or {})
    if options.hardware_name:
        hardware["name"] = options.hardware_name
    return fitted_hardware(hardware)


def _fitted(result: dict[str, Any]) -> dict[str, Any]:
    """A benchmark name longer than the contract allows, shortened the same way each time
    (its head and a hash of the whole), so the series stays one series."""
    name = result["benchmark"]
    if len(name) > MAX_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:10]
        result["benchmark"] = f"{name[: MAX_NAME - 12]}… {digest}"
    return result


def _one_unit_per_series(
    results: list[dict[str, Any]],
    suite: str,
    machine: str,
    units: dict[str, str],
    out: ContractRuns,
) -> list[dict[str, Any]]:
    """A series keeps the base unit it started with (the service refuses a change, and a
    whole batch with it): a later figure in another dimension is reported, not sent."""
    kept = []
    for result in results:
        identity = result_identity(result, suite, machine)
        base = unit_info(result["unit"]).base_unit
        first = units.setdefault(identity, base)
        if first != base:
            item = f"{suite}: {result['benchmark']} {result['metric']}"
            out.skipped.append(Skipped(item, f"unit {result['unit']} after {first} figures"))
            continue
        kept.append(result)
    return kept


def _label(source: SourceRun, suite: str) -> str:
    commit = source.git.get("commit", "")[:12]
    return f"{suite} @ {commit or source.started_at}"


def _run(
    source: SourceRun,
    results: list[dict[str, Any]],
    suite: str,
    hardware: dict[str, Any],
    options: ImportOptions,
) -> dict[str, Any]:
    git = dict(source.git)
    if options.git_repo:
        git["repo"] = options.git_repo
    if options.git_branch:
        git["branch"] = options.git_branch
    return build_run(
        results,
        RunOptions(
            suite=suite,
            hardware=hardware,
            git=git,
            run_id=run_id(options.format, suite, source.key),
            name=source.name,
            started_at=source.started_at,
            source_url=source.source_url,
            tags=fitted_map(source.tags),
            environment=fitted_map(source.environment),
        ),
    )


def _require_language(runs: list[dict[str, Any]]) -> None:
    unknown = sorted(
        {
            run["suite"]
            for run in runs
            if any(result["language"] == UNKNOWN_LANGUAGE for result in run["results"])
        }
    )
    if unknown:
        raise ImportUsageError(
            "the history does not say which language was measured in suite "
            f"{', '.join(unknown[:5])}; pass --language"
        )
