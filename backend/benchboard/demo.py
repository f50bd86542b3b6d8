"""The seed studies, loaded through the same code path as any upload (idempotent by id),
then their metadata and published comparisons (studies.json) as a maintainer would set
them: only what is still unset, so a maintainer's own edits survive a restart."""

import logging
import uuid
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter
from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from benchboard.findings.schemas import FindingIn, FindingSideIn, FindingsUpdate
from benchboard.findings.service import replace_findings
from benchboard.models import Finding, Hardware, Run, Series, Suite
from benchboard.runs.body import parse_upload
from benchboard.runs.store import StoredRun, store_run
from benchboard.series.identity import series_fingerprint
from benchboard.suites.schemas import StudyLink

logger = logging.getLogger(__name__)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DemoSide(_Strict):
    """A finding's side by the identity of its result, since series ids vary by database."""

    label: str
    run_id: uuid.UUID
    benchmark: str
    params: dict[str, Any]
    language: str
    implementation: str | None
    mode: str | None
    variant: str | None
    metric: str


class DemoFinding(_Strict):
    numerator: DemoSide
    denominator: DemoSide
    context: str | None
    note: str | None


class DemoStudy(_Strict):
    title: str
    description: str
    authors: list[str]
    links: list[StudyLink]
    findings: list[DemoFinding]


def demo_files() -> list[tuple[str, bytes]]:
    folder = resources.files("benchboard") / "demo"
    return sorted(
        (item.name, item.read_bytes()) for item in folder.iterdir() if item.name.endswith(".json")
    )


_STUDIES = TypeAdapter(dict[str, DemoStudy])


def demo_studies() -> dict[str, DemoStudy]:
    """Each seed suite's metadata and findings, from studies.json."""
    return _STUDIES.validate_json((resources.files("benchboard") / "studies.json").read_bytes())


def _side(session: Session, suite: str, side: DemoSide) -> FindingSideIn:
    run = session.execute(
        select(Run.branch, Hardware.name)
        .join(Hardware, Hardware.id == Run.hardware_id)
        .where(Run.id == side.run_id)
    ).one()
    fingerprint = series_fingerprint(
        suite=suite,
        benchmark=side.benchmark,
        params=side.params,
        language=side.language,
        implementation=side.implementation,
        mode=side.mode,
        variant=side.variant,
        hardware=run.name,
        metric=side.metric,
    )
    series_id = session.scalar(
        select(Series.id).where(Series.fingerprint == fingerprint, Series.branch == run.branch)
    )
    if series_id is None:
        raise LookupError(f"studies.json: {suite}: no series for {side.label!r} ({side.metric})")
    return FindingSideIn(run_id=side.run_id, series_id=series_id, label=side.label)


def _fill_metadata(session: Session, suite: str, study: DemoStudy) -> None:
    row = session.get(Suite, suite)
    if row is None:
        raise LookupError(f"studies.json names suite {suite!r}, which has no demo run")
    row.title = row.title or study.title
    row.description = row.description or study.description
    row.authors = row.authors or study.authors
    row.links = row.links or [link.model_dump() for link in study.links]


def set_demo_studies(session: Session) -> None:
    """Fill the seed suites' unset metadata; pin their findings where none are pinned."""
    for suite, study in demo_studies().items():
        _fill_metadata(session, suite, study)
        if session.scalar(select(exists().where(Finding.suite == suite))):
            continue
        findings = [
            FindingIn(
                numerator=_side(session, suite, finding.numerator),
                denominator=_side(session, suite, finding.denominator),
                context=finding.context,
                note=finding.note,
            )
            for finding in study.findings
        ]
        replace_findings(
            session, suite, FindingsUpdate(findings=findings), actor="demo", token_id=None
        )
    session.flush()


def load_demo(session: Session) -> list[StoredRun]:
    """Store every seed study that is not stored yet, then its metadata and findings; the
    caller commits."""
    stored = []
    for name, body in demo_files():
        run = store_run(session, parse_upload(body), raw_body=body, uploader=None)
        logger.info("demo %s: %s", name, "loaded" if run.created else "already there")
        stored.append(run)
    set_demo_studies(session)
    return stored
