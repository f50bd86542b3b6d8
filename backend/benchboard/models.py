"""Every table of the service: the schema in one read. Alembic migrations create them."""

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Double,
    ForeignKey,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from benchboard.vocabulary import (
    CHANGE_DIRECTIONS,
    CURATION_KINDS,
    SUITE_VISIBILITIES,
    TOKEN_SCOPES,
    TRIAGE_STATUSES,
)
from benchboard_ingest.vocabulary import DIRECTIONS, MODES

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _one_of(column: str, values: tuple[str, ...], name: str) -> CheckConstraint:
    """A CHECK that the column holds one of a vocabulary's values."""
    listed = ", ".join(f"'{value}'" for value in values)
    return CheckConstraint(f"{column} IN ({listed})", name=name)


def _created_at() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), server_default=func.now())


class Hardware(Base):
    """A machine; the name identifies it (same name = same machine). `info` is its shared
    description: the first upload's, then only a maintainer's (each run keeps its own)."""

    __tablename__ = "hardware"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(Text, unique=True)
    info: Mapped[dict[str, Any]] = mapped_column(JSONB, server_default="{}")
    created_at: Mapped[datetime] = _created_at()
    # The token that last set the description, by name and id; null: never set by one.
    updated_by: Mapped[str | None] = mapped_column(Text)
    updated_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))


class ApiToken(Base):
    """A bearer token; only the SHA-256 of the secret is kept."""

    __tablename__ = "api_token"
    __table_args__ = (_one_of("scope", TOKEN_SCOPES, "scope"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(Text, unique=True)
    scope: Mapped[str] = mapped_column(Text)
    # The suites it acts on: exact names or `prefix-*` patterns; null: every suite.
    suites: Mapped[list[str] | None] = mapped_column(ARRAY(Text))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    # The token that made it over the API; null: the CLI on the server.
    created_by: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    created_at: Mapped[datetime] = _created_at()
    # Kept to the minute (tokens.service.authenticate): not a write per request.
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The token that revoked it; null: the CLI on the server (or not revoked).
    revoked_by: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))


DEFAULT_BRANCH = "main"


class Suite(Base):
    """Per-suite settings. Every suite with a run has a row (the upload creates it)."""

    __tablename__ = "suite"
    __table_args__ = (_one_of("visibility", SUITE_VISIBILITIES, "visibility"),)

    name: Mapped[str] = mapped_column(Text, primary_key=True)
    # A private suite is read only with a token that covers it (tokens/visibility.py).
    visibility: Mapped[str] = mapped_column(Text, server_default="public")
    # Where runs without `git.branch` count, and which branch default views show.
    default_branch: Mapped[str] = mapped_column(Text, server_default=DEFAULT_BRANCH)
    # A study's page: what a maintainer says about the suite (its runs' tags say the rest).
    title: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)
    authors: Mapped[list[str]] = mapped_column(JSONB, server_default="[]")
    # [{"label": …, "url": …}]: the article, the code, the raw data.
    links: Mapped[list[dict[str, str]]] = mapped_column(JSONB, server_default="[]")
    created_at: Mapped[datetime] = _created_at()
    updated_at: Mapped[datetime] = _created_at()
    # The token that last changed the settings or the findings.
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))


class Finding(Base):
    """A maintainer's headline of a study: the ratio of two results, each pinned to its run.

    The runs are pinned on purpose (no ON DELETE CASCADE): a published finding must keep
    the figures it states, so retention may not drop them (findings.service.pinned_run_ids).
    """

    __tablename__ = "finding"
    __table_args__ = (
        UniqueConstraint("suite", "position", name="uq_finding_suite_position"),
        Index("ix_finding_numerator_run_id", "numerator_run_id"),
        Index("ix_finding_denominator_run_id", "denominator_run_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    suite: Mapped[str] = mapped_column(ForeignKey("suite.name", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    numerator_series_id: Mapped[int] = mapped_column(ForeignKey("series.id"))
    numerator_run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("run.id"))
    numerator_label: Mapped[str] = mapped_column(Text)
    denominator_series_id: Mapped[int] = mapped_column(ForeignKey("series.id"))
    denominator_run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("run.id"))
    denominator_label: Mapped[str] = mapped_column(Text)
    # Completes the sentence: "async 2.09× slower than sync" + " for 10,000 tiny writes".
    context: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(Text)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    created_at: Mapped[datetime] = _created_at()


class Run(Base):
    """One upload: a set of results measured together on one machine."""

    __tablename__ = "run"
    __table_args__ = (
        Index("ix_run_suite_started_at", "suite", "started_at"),
        # Baseline lookup: a branch's newest run on a machine before a time.
        Index(
            "ix_run_suite_branch_hardware_started_at",
            "suite",
            "branch",
            "hardware_id",
            "started_at",
        ),
        Index("ix_run_hardware_started_at", "hardware_id", "started_at"),
        Index(
            "ix_run_tags", "tags", postgresql_using="gin", postgresql_ops={"tags": "jsonb_path_ops"}
        ),
        Index(
            "ix_run_environment",
            "environment",
            postgresql_using="gin",
            postgresql_ops={"environment": "jsonb_path_ops"},
        ),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    suite: Mapped[str] = mapped_column(ForeignKey("suite.name"))
    name: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_url: Mapped[str | None] = mapped_column(Text)
    git: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # `git.branch`, else the suite's default branch when the run was uploaded.
    branch: Mapped[str] = mapped_column(Text)
    hardware_id: Mapped[int] = mapped_column(ForeignKey("hardware.id"))
    # The machine as this run described it (2d7e9b4a6c31 filled older runs' from their
    # uploads; null only where rows are written directly, as the bench scripts do).
    hardware_info: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    environment: Mapped[dict[str, str]] = mapped_column(JSONB, server_default="{}")
    tags: Mapped[dict[str, str]] = mapped_column(JSONB, server_default="{}")
    result_count: Mapped[int] = mapped_column(Integer)
    # The upload exactly as sent (for download) and the hash of its canonical form
    # (for the idempotent-repeat check).
    upload_body: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)  # MBs: load on ask
    upload_sha256: Mapped[bytes] = mapped_column(LargeBinary)
    uploaded_by: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    created_at: Mapped[datetime] = _created_at()


class Series(Base):
    """A result's identity across the runs of one branch.

    `fingerprint` hashes the identity fields once (the branch apart), so the same
    benchmark on another branch has the same fingerprint: that is how a baseline is found.
    """

    __tablename__ = "series"
    __table_args__ = (
        UniqueConstraint("fingerprint", "branch", name="uq_series_fingerprint_branch"),
        _one_of("direction", DIRECTIONS, "direction"),
        _one_of("mode", MODES, "mode"),
        Index("ix_series_suite_benchmark", "suite", "benchmark"),
        Index("ix_series_language_mode", "language", "mode"),
        Index("ix_series_hardware_id", "hardware_id"),
        # The async partners of a sync series (compare/modes.py): the pairing key, then
        # the params' keys and the params, all hashed (equal params are one descent; a
        # narrow entry is a third of the cost of a new series' row). Only async series are
        # ever looked up: the others cost an upload nothing here.
        Index(
            "ix_series_pairing",
            text("pairing_key_hash(suite, branch, benchmark, language, hardware_id, metric)"),
            text("param_keys_hash(params)"),
            text("jsonb_hash_extended(params, 0)"),
            postgresql_where=text("mode = 'async'"),
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    fingerprint: Mapped[bytes] = mapped_column(LargeBinary)
    branch: Mapped[str] = mapped_column(Text)
    suite: Mapped[str] = mapped_column(Text)
    benchmark: Mapped[str] = mapped_column(Text)
    params: Mapped[dict[str, Any]] = mapped_column(JSONB)
    language: Mapped[str] = mapped_column(Text)
    implementation: Mapped[str | None] = mapped_column(Text)
    mode: Mapped[str | None] = mapped_column(Text)
    variant: Mapped[str | None] = mapped_column(Text)
    hardware_id: Mapped[int] = mapped_column(ForeignKey("hardware.id"))
    metric: Mapped[str] = mapped_column(Text)
    unit: Mapped[str] = mapped_column(Text)
    base_unit: Mapped[str] = mapped_column(Text)
    direction: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _created_at()
    # Kept by every upload (runs/totals.py), so lists never count results: how many
    # results the series has, and when its first and newest ran. Never index them: the
    # table's fillfactor of 50 (migration 6f2b8d4e1a93) makes their updates HOT.
    result_count: Mapped[int] = mapped_column(Integer, server_default="0")
    first_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Moves with every change to the series' results (uploads, deletions, recount_totals()):
    # a history snapshot built from another version is not served (series/snapshots.py).
    history_version: Mapped[int] = mapped_column(BigInteger, server_default="0")


class SuiteBranch(Base):
    """Totals of a suite's runs and series on one branch, kept by every upload
    (runs/totals.py): the suite list reads these rows instead of every run."""

    __tablename__ = "suite_branch"

    suite: Mapped[str] = mapped_column(
        ForeignKey("suite.name", ondelete="CASCADE"), primary_key=True
    )
    branch: Mapped[str] = mapped_column(Text, primary_key=True)
    run_count: Mapped[int] = mapped_column(Integer)
    result_count: Mapped[int] = mapped_column(BigInteger)
    series_count: Mapped[int] = mapped_column(Integer, server_default="0")
    first_started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # What the names of these runs share (the suite's title), and whether they differ.
    name_prefix: Mapped[str | None] = mapped_column(Text)
    names_differ: Mapped[bool] = mapped_column(Boolean, server_default="false")
    languages: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    hardware: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")


class SeriesGroup(Base):
    """Series counted per identity apart from params (a parameter sweep's many series are
    one row): facets, mode pairing and the regressions' support note read these rows
    instead of every series (series/groups.py). Statement triggers on `series` keep
    `series_count`; uploads and run deletions move the other two as series grow or shrink
    past 3 and 16 results (runs/totals.py); `recount_totals()` rebuilds them all."""

    __tablename__ = "series_group"
    __table_args__ = (
        UniqueConstraint(
            "suite",
            "branch",
            "benchmark",
            "language",
            "implementation",
            "mode",
            "variant",
            "hardware_id",
            "metric",
            name="uq_series_group_key",
            postgresql_nulls_not_distinct=True,
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    suite: Mapped[str] = mapped_column(Text)
    branch: Mapped[str] = mapped_column(Text)
    benchmark: Mapped[str] = mapped_column(Text)
    language: Mapped[str] = mapped_column(Text)
    implementation: Mapped[str | None] = mapped_column(Text)
    mode: Mapped[str | None] = mapped_column(Text)
    variant: Mapped[str | None] = mapped_column(Text)
    hardware_id: Mapped[int] = mapped_column(Integer)
    metric: Mapped[str] = mapped_column(Text)
    # No series of the group has a smaller id (deletions leave it: a lower bound), so a
    # list walking series ids starts here.
    first_series_id: Mapped[int] = mapped_column(BigInteger)
    series_count: Mapped[int] = mapped_column(Integer)
    # Series with fewer than 3 results (too few for any change) and fewer than 16.
    few_runs_count: Mapped[int] = mapped_column(Integer)
    short_count: Mapped[int] = mapped_column(Integer)


class Result(Base):
    """One figure of one run. `started_at` repeats the run's so history reads one index.

    Partitioned by month of `started_at` (partitions.py keeps the partitions), so unique
    keys include it: a run's results share its started_at, so (run_id, series_id,
    started_at) is still one result per series and run.
    """

    __tablename__ = "result"
    __table_args__ = (
        UniqueConstraint("run_id", "series_id", "started_at", name="uq_result_run_id_series_id"),
        Index(
            "ix_result_series_started_at",
            "series_id",
            "started_at",
            # Covering: a history read is an index-only scan, no table page per point.
            postgresql_include=["value_base", "value", "run_id", "unit", "stats"],
        ),
        # Change detection reads replicates only where there are any: a history read stays
        # index-only for the many series that have none.
        Index(
            "ix_result_series_started_at_with_samples",
            "series_id",
            "started_at",
            postgresql_where="samples IS NOT NULL",
        ),
        {"postgresql_partition_by": "RANGE (started_at)"},
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    value: Mapped[float] = mapped_column(Double)
    unit: Mapped[str] = mapped_column(Text)
    value_base: Mapped[float] = mapped_column(Double)
    stats: Mapped[dict[str, float] | None] = mapped_column(JSONB)
    samples: Mapped[list[float] | None] = mapped_column(ARRAY(Double))


class Regression(Base):
    """A detected change in a series' level, on the first run after it, and its triage."""

    __tablename__ = "regression"
    __table_args__ = (
        _one_of("direction", CHANGE_DIRECTIONS, "direction"),
        _one_of("status", TRIAGE_STATUSES, "status"),
        UniqueConstraint("series_id", "run_id", name="uq_regression_series_id_run_id"),
        Index("ix_regression_started_at", "started_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"))
    # Null once its run was deleted: the change is then retracted, its trail kept.
    run_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    direction: Mapped[str] = mapped_column(Text)
    relative_change: Mapped[float] = mapped_column(Double)
    before_base: Mapped[float] = mapped_column(Double)
    after_base: Mapped[float] = mapped_column(Double)
    confidence: Mapped[float] = mapped_column(Double)
    # One run after the change, judged on its replicates: until a second run confirms it.
    provisional: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # What the detection rests on (detection.detect.Evidence); null on older rows.
    evidence: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(Text, server_default="untriaged")
    note: Mapped[str | None] = mapped_column(Text)
    links: Mapped[list[str]] = mapped_column(JSONB, server_default="[]")
    # Later data may show an untriaged detection was noise: it is kept, but hidden.
    retracted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Its cause: the changes one commit (or one run) made, across machines (alerts/).
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("alert_group.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = _created_at()
    updated_at: Mapped[datetime] = _created_at()


class AlertGroup(Base):
    """The changes of one cause in a suite: one git commit across every machine and
    branch view, else one run, else one change a maintainer set apart."""

    __tablename__ = "alert_group"
    __table_args__ = (UniqueConstraint("suite", "cause", name="uq_alert_group_suite_cause"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    suite: Mapped[str] = mapped_column(Text)
    # "commit:<sha>", "run:<uuid>" or "apart:<regression id>": what the worker groups by.
    cause: Mapped[str] = mapped_column(Text)
    commit: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _created_at()


class SeriesCuration(Base):
    """A maintainer's curation of a series' baseline, audited and reversible: a run's
    result marked an outlier (left out of detection and verdicts), or the baseline reset
    at a run (detection starts there). Undoing one sets `removed_*`; the row stays as the record."""

    __tablename__ = "series_curation"
    __table_args__ = (
        _one_of("kind", CURATION_KINDS, "kind"),
        Index(
            "ix_series_curation_active",
            "series_id",
            "kind",
            "run_id",
            unique=True,
            postgresql_where=text("removed_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"))
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(Text)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    created_at: Mapped[datetime] = _created_at()
    removed_by: Mapped[str | None] = mapped_column(Text)
    removed_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class NotificationTarget(Base):
    """Where a suite's alert groups are announced: an Apprise URL, which directions, and
    the smallest relative change worth a message. Its URL holds secrets: never shown."""

    __tablename__ = "notification_target"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    suite: Mapped[str] = mapped_column(Text, index=True)
    url: Mapped[str] = mapped_column(Text)
    events: Mapped[list[str]] = mapped_column(JSONB)
    min_change: Mapped[float] = mapped_column(Double)
    created_at: Mapped[datetime] = _created_at()
    # The token that last set it (its URL, events or threshold).
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))


class NotificationDelivery(Base):
    """The notification outbox: messages per alert group and target, written by the check
    that announces changes of the group, sent and retried by workers. At most one pending
    per target and group; `announced` keeps the changes a sent message named, so a
    follow-up names only those that joined after it."""

    __tablename__ = "notification_delivery"
    __table_args__ = (
        Index(
            "uq_notification_delivery_pending",
            "target_id",
            "group_id",
            unique=True,
            postgresql_where="delivered_at IS NULL AND gave_up_at IS NULL",
        ),
        Index(
            "ix_notification_delivery_due",
            "next_attempt_at",
            postgresql_where="delivered_at IS NULL AND gave_up_at IS NULL",
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("notification_target.id", ondelete="CASCADE"))
    group_id: Mapped[int] = mapped_column(
        ForeignKey("alert_group.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = _created_at()
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    next_attempt_at: Mapped[datetime] = _created_at()
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    gave_up_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The changes (regression ids) the message named, set when it is sent.
    announced: Mapped[list[int] | None] = mapped_column(ARRAY(BigInteger))


class RegressionEvent(Base):
    """The audit trail of a regression: who changed what, when."""

    __tablename__ = "regression_event"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    regression_id: Mapped[int] = mapped_column(
        ForeignKey("regression.id", ondelete="CASCADE"), index=True
    )
    actor: Mapped[str] = mapped_column(Text)
    # The token that made the change; null: the detector, the CLI, or before tokens had ids.
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    changes: Mapped[dict[str, Any]] = mapped_column(JSONB)
    at: Mapped[datetime] = _created_at()


class Annotation(Base):
    """A maintainer's note pinned to a series, a suite or a machine, at a time or a run."""

    __tablename__ = "annotation"
    __table_args__ = (
        CheckConstraint("num_nonnulls(series_id, suite, hardware_id) = 1", name="one_scope"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    text: Mapped[str] = mapped_column(Text)
    series_id: Mapped[int | None] = mapped_column(
        ForeignKey("series.id", ondelete="CASCADE"), index=True
    )
    suite: Mapped[str | None] = mapped_column(Text, index=True)
    hardware_id: Mapped[int | None] = mapped_column(ForeignKey("hardware.id"), index=True)
    # Null once the run was deleted: the note stays at `at`, the run's time.
    run_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    # Given, or the pinned run's started_at: every annotation has a place on the time axis.
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[str] = mapped_column(Text)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    created_at: Mapped[datetime] = _created_at()
    updated_at: Mapped[datetime] = _created_at()
    # The token that last edited it, by name and id; null: never edited since edits named it.
    updated_by: Mapped[str | None] = mapped_column(Text)
    updated_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))


class AnnotationDeletion(Base):
    """The record of deleted annotations: who (the token's name and id), when, and the note
    as it read (`AnnotationOut`), since the note itself is gone."""

    __tablename__ = "annotation_deletion"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    annotation_id: Mapped[int] = mapped_column(BigInteger, index=True)
    annotation: Mapped[dict[str, Any]] = mapped_column(JSONB)
    deleted_by: Mapped[str] = mapped_column(Text)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    deleted_at: Mapped[datetime] = _created_at()


class HistorySnapshot(Base):
    """A long series' whole history as `GET /series/{id}/history?max_points=` writes it:
    the points' JSON, zstd-compressed, built by the workers from `version` of the series.
    max_points 0 is every point as stored, with `point_index` to slice windows from it
    (series/every_point.py).
    """

    __tablename__ = "history_snapshot"

    series_id: Mapped[int] = mapped_column(
        BigInteger,
        ForeignKey("series.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    )
    max_points: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(BigInteger)
    points_zstd: Mapped[bytes] = mapped_column(LargeBinary)
    point_index: Mapped[bytes | None] = mapped_column(LargeBinary)
    built_at: Mapped[datetime] = _created_at()


class DetectionQueue(Base):
    """Series waiting for change detection: one row per series, however many uploads.

    An upload inserts or bumps `requests` in its own transaction; a worker claims rows
    (a committed `claimed_by`, so uploads never wait on it), checks the series, and in
    the transaction that stores the result deletes the rows whose `requests` did not move
    meanwhile. A claim whose worker is gone (its advisory lock released) or older than the
    claim timeout is free again. See pipeline/README.md.
    """

    __tablename__ = "detection_queue"
    __table_args__ = (
        Index("ix_detection_queue_queued_at", "queued_at"),
        # Rows claimed before and not finished: claimed one at a time (queue.claim_batch).
        Index(
            "ix_detection_queue_retried",
            "queued_at",
            postgresql_where=text("attempts > 0 AND failed_at IS NULL"),
        ),
    )

    # No foreign key: checking one would lock 100,000 series rows per large upload (it
    # tripled the cost of queueing one). A row of a deleted series is checked to nothing.
    series_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    # When the oldest request not yet covered by a check came in: the detection lag.
    queued_at: Mapped[datetime] = _created_at()
    requests: Mapped[int] = mapped_column(Integer, server_default="1")
    claimed_by: Mapped[int | None] = mapped_column(BigInteger)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Failed checks back off: the row is not claimed again before `not_before`.
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    not_before: Mapped[datetime] = _created_at()
    last_error: Mapped[str | None] = mapped_column(Text)
    # Set after too many failed checks: skipped until new data or a maintainer's retry.
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WebhookDelivery(Base):
    """The webhook outbox: one POST to make, written with the regression it announces,
    sent (and retried with backoff) by the detection workers."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (
        Index(
            "ix_webhook_delivery_due",
            "next_attempt_at",
            postgresql_where="delivered_at IS NULL AND gave_up_at IS NULL",
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    regression_id: Mapped[int] = mapped_column(
        ForeignKey("regression.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(Text)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = _created_at()
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    next_attempt_at: Mapped[datetime] = _created_at()
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    gave_up_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class StaleTotals(Base):
    """Totals a removal made stale that no recount has rebuilt yet: retention writes its
    row with each partition it drops and each batch of runs it deletes, and deletes it
    with its recount. A row left behind is a crashed run's; the next run recounts first."""

    __tablename__ = "stale_totals"

    cause: Mapped[str] = mapped_column(Text, primary_key=True)
    since: Mapped[datetime] = _created_at()


class RunDeletion(Base):
    """The audit log of deleted runs: who (the token, or `cli:` and the system user), when,
    which run, how many results, and the upload as it was sent, so it can be sent again."""

    __tablename__ = "run_deletion"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    run_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), index=True)
    suite: Mapped[str] = mapped_column(Text)
    hardware: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    result_count: Mapped[int] = mapped_column(Integer)
    deleted_by: Mapped[str] = mapped_column(Text)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"))
    upload_body: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    deleted_at: Mapped[datetime] = _created_at()
