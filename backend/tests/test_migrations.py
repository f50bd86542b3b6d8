"""Alembic is the only source of the schema: the models and vocabularies must agree with it."""

import re
import uuid
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, text

from benchboard.config import Settings
from benchboard.database_server import recreate_database
from benchboard.db import make_engine
from benchboard.migrate import alembic_config
from benchboard.models import Base
from benchboard.partitions import include_in_schema
from benchboard.vocabulary import CHANGE_DIRECTIONS, TOKEN_SCOPES, TRIAGE_STATUSES
from benchboard_ingest.vocabulary import DIRECTIONS, MODES


def test_models_match_the_migrated_schema(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_object": include_in_schema}
        )
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def _allowed_values(engine: Engine, table: str, constraint: str) -> set[str]:
    with engine.connect() as connection:
        definition = connection.execute(
            text(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conrelid = CAST(:table AS regclass) AND conname = :name"
            ),
            {"table": table, "name": constraint},
        ).scalar_one()
    return set(re.findall(r"'([^']*)'", definition))


@pytest.mark.parametrize(
    ("table", "constraint", "vocabulary"),
    [
        ("series", "ck_series_direction", DIRECTIONS),
        ("series", "ck_series_mode", MODES),
        ("regression", "ck_regression_direction", CHANGE_DIRECTIONS),
        ("regression", "ck_regression_status", TRIAGE_STATUSES),
        ("api_token", "ck_api_token_scope", TOKEN_SCOPES),
    ],
)
def test_the_database_allows_exactly_the_vocabulary(
    engine: Engine, table: str, constraint: str, vocabulary: tuple[str, ...]
) -> None:
    """Migrations are frozen history, so their CHECK lists are copies: compare them."""
    assert _allowed_values(engine, table, constraint) == set(vocabulary)


BEFORE_BRANCHES = "3c1d2e4f5a6b"


@pytest.fixture
def scratch_engine(settings: Settings) -> Iterator[Engine]:
    """An empty database of its own, for migrating step by step."""
    scratch = settings.model_copy(update={"database_name": "benchboard_migration_test"})
    engine = make_engine(recreate_database(scratch))
    yield engine
    engine.dispose()


def _migrate(settings: Settings, engine: Engine, verb: str, revision: str) -> None:
    config = alembic_config(settings, engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, verb)(config, revision)


def _insert_pre_branch_data(engine: Engine) -> dict[str, str]:
    """A suite whose one series got results from main, branchless and feature runs, with a
    regression and a note on the feature run; and a suite that only ever ran on `dev`."""
    runs = {
        "main": ("11111111-1111-4111-8111-111111111111", '{"branch": "main"}', "mixed"),
        "none": ("22222222-2222-4222-8222-222222222222", None, "mixed"),
        "feature": ("33333333-3333-4333-8333-333333333333", '{"branch": "feature"}', "mixed"),
        "dev": ("44444444-4444-4444-8444-444444444444", '{"branch": "dev"}', "dev-only"),
    }
    with engine.begin() as db:
        db.execute(text("INSERT INTO hardware (id, name) VALUES (1, 'm')"))
        for series_id, suite in ((1, "mixed"), (2, "dev-only")):
            db.execute(
                text(
                    "INSERT INTO series (id, fingerprint, suite, benchmark, params, language,"
                    " hardware_id, metric, unit, base_unit, direction) VALUES (:id, :fp, :suite,"
                    " 'b', '{}', 'go', 1, 'time', 'ms', 's', 'lower')"
                ),
                {"id": series_id, "fp": bytes([series_id]), "suite": suite},
            )
        db.execute(text("SELECT setval('series_id_seq', 2)"))
        for day, (run_id, git, suite) in enumerate(runs.values(), start=1):
            db.execute(
                text(
                    "INSERT INTO run (id, suite, started_at, git, hardware_id, result_count,"
                    " upload_body, upload_sha256) VALUES (:id, :suite, :at, CAST(:git AS jsonb),"
                    " 1, 1, '', '')"
                ),
                {"id": run_id, "suite": suite, "at": f"2025-01-0{day}T00:00:00Z", "git": git},
            )
            db.execute(
                text(
                    "INSERT INTO result (run_id, series_id, started_at, value, unit, value_base)"
                    " VALUES (:run, :series, :at, :day, 'ms', :day / 1000.0)"
                ),
                {
                    "run": run_id,
                    "series": 2 if suite == "dev-only" else 1,
                    "day": day,
                    "at": f"2025-01-0{day}T00:00:00Z",
                },
            )
        feature_run = runs["feature"][0]
        db.execute(
            text(
                "INSERT INTO regression (series_id, run_id, started_at, direction,"
                " relative_change, before_base, after_base, confidence)"
                " VALUES (1, :run, '2025-01-03', 'regression', 0.5, 1, 1.5, 0.99)"
            ),
            {"run": feature_run},
        )
        for run_id, note in ((feature_run, "on the feature run"), (None, "on the series")):
            db.execute(
                text(
                    "INSERT INTO annotation (text, series_id, run_id, at, created_by)"
                    " VALUES (:note, 1, :run, '2025-01-03', 'test')"
                ),
                {"note": note, "run": run_id},
            )
    return {name: run_id for name, (run_id, _, _) in runs.items()}


def test_upgrade_splits_series_by_branch_and_downgrade_merges_them(
    settings: Settings, scratch_engine: Engine
) -> None:
    _migrate(settings, scratch_engine, "upgrade", BEFORE_BRANCHES)
    runs = _insert_pre_branch_data(scratch_engine)
    _migrate(settings, scratch_engine, "upgrade", "head")
    with scratch_engine.connect() as db:
        branch_of_run = dict(db.execute(text("SELECT id::text, branch FROM run")).tuples().all())
        assert branch_of_run == {
            runs["main"]: "main",
            runs["none"]: "main",
            runs["feature"]: "feature",
            runs["dev"]: "dev",
        }
        series = db.execute(
            text(
                "SELECT s.id, s.suite, s.branch, array_agg(r.run_id::text ORDER BY r.started_at)"
                " FROM series s JOIN result r ON r.series_id = s.id GROUP BY s.id ORDER BY s.id"
            )
        ).all()
        (main_id, _, _, _), (dev_id, _, _, _), (feature_id, _, _, _) = series
        assert [tuple(row[1:]) for row in series] == [
            ("mixed", "main", [runs["main"], runs["none"]]),
            ("dev-only", "dev", [runs["dev"]]),
            ("mixed", "feature", [runs["feature"]]),
        ]
        assert (main_id, dev_id) == (1, 2)  # the default branch keeps the series id
        assert db.scalar(text("SELECT series_id FROM regression")) == feature_id
        notes = dict(db.execute(text("SELECT text, series_id FROM annotation")).tuples().all())
        assert notes == {"on the feature run": feature_id, "on the series": main_id}
        suites = db.execute(text("SELECT name, default_branch FROM suite ORDER BY name")).all()
        assert [tuple(s) for s in suites] == [("dev-only", "main"), ("mixed", "main")]
    _migrate(settings, scratch_engine, "downgrade", BEFORE_BRANCHES)
    with scratch_engine.connect() as db:
        assert db.scalar(text("SELECT count(*) FROM series")) == 2
        assert db.scalar(text("SELECT count(DISTINCT series_id) FROM result")) == 2
        assert db.scalar(text("SELECT series_id FROM regression")) == 1


def test_upgrade_counts_the_totals_of_the_stored_runs(
    settings: Settings, scratch_engine: Engine
) -> None:
    _migrate(settings, scratch_engine, "upgrade", BEFORE_BRANCHES)
    _insert_pre_branch_data(scratch_engine)
    _migrate(settings, scratch_engine, "upgrade", "head")
    with scratch_engine.connect() as db:
        branches = db.execute(
            text(
                "SELECT suite, branch, run_count, result_count, series_count, languages"
                " FROM suite_branch ORDER BY suite, branch"
            )
        ).all()
        assert [tuple(row) for row in branches] == [
            ("dev-only", "dev", 1, 1, 1, ["go"]),
            ("mixed", "feature", 1, 1, 1, ["go"]),
            ("mixed", "main", 2, 2, 1, ["go"]),
        ]
        series = db.execute(
            text(
                "SELECT branch, result_count, first_started_at::date::text,"
                " last_started_at::date::text FROM series ORDER BY id"
            )
        ).all()
        assert [tuple(row) for row in series] == [
            ("main", 2, "2025-01-01", "2025-01-02"),
            ("dev", 1, "2025-01-04", "2025-01-04"),
            ("feature", 1, "2025-01-03", "2025-01-03"),
        ]


BEFORE_PARTITIONS = "5e2a9c7d1f08"


def _insert_run_with_result(db: Connection, started_at: str, *, branch: str | None = None) -> None:
    """A run of suite `mixed` with one result of series 1; a branch only where the
    schema has the column (after BEFORE_BRANCHES)."""
    run_id = str(uuid.uuid4())
    columns, values = ("", "") if branch is None else (", branch", ", :branch")
    db.execute(
        text(
            f"INSERT INTO run (id, suite, started_at, hardware_id, result_count, upload_body,"  # noqa: S608
            f" upload_sha256{columns}) VALUES (:id, 'mixed', :at, 1, 1, '', ''{values})"
        ),
        {"id": run_id, "at": started_at, "branch": branch},
    )
    db.execute(
        text(
            "INSERT INTO result (run_id, series_id, started_at, value, unit, value_base)"
            " VALUES (:id, 1, :at, 7, 'ms', 0.007)"
        ),
        {"id": run_id, "at": started_at},
    )


def test_upgrade_moves_stored_results_into_monthly_partitions_and_back(
    settings: Settings, scratch_engine: Engine
) -> None:
    """Rows of several months each go to their month (by UTC: 23:30 at -01:00 on New
    Year's Eve is January), and a row stored later outside every month lands in the
    default partition; the downgrade brings every row back, the default's too."""
    _migrate(settings, scratch_engine, "upgrade", BEFORE_BRANCHES)
    _insert_pre_branch_data(scratch_engine)
    with scratch_engine.begin() as db:
        _insert_run_with_result(db, "2025-03-10T00:00:00Z")
        _insert_run_with_result(db, "1999-12-31T23:30:00-01:00")
    _migrate(settings, scratch_engine, "upgrade", "head")
    partitions = "SELECT tableoid::regclass::text, count(*) FROM result GROUP BY 1 ORDER BY 1"
    primary_key = (
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = 'result'::regclass AND conname = 'pk_result'"
    )
    with scratch_engine.begin() as db:
        assert [tuple(row) for row in db.execute(text(partitions))] == [
            ("result_p200001", 1),
            ("result_p202501", 4),
            ("result_p202503", 1),
        ]
        assert db.scalar(text(primary_key)) == "PRIMARY KEY (id, started_at)"
        # The sequence goes on where it was.
        assert db.scalar(text("SELECT nextval('result_id_seq')")) == 7
        # February had no run: its rows go to the default partition.
        _insert_run_with_result(db, "2025-02-14T00:00:00Z", branch="main")
        assert ("result_default", 1) in db.execute(text(partitions)).tuples()
    _migrate(settings, scratch_engine, "downgrade", BEFORE_PARTITIONS)
    with scratch_engine.connect() as db:
        assert [tuple(row) for row in db.execute(text(partitions))] == [("result", 7)]
        assert db.scalar(text(primary_key)) == "PRIMARY KEY (id)"
        months = "SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM') FROM result ORDER BY 1"
        assert list(db.scalars(text(months))) == [
            "2000-01",
            *["2025-01"] * 4,
            "2025-02",
            "2025-03",
        ]


BEFORE_SCOPED_TOKENS = "8b4f6d2c0e15"


def test_upgrade_strips_credentials_from_stored_git_urls(
    settings: Settings, scratch_engine: Engine
) -> None:
    """A GitLab CI clone URL (job token) and a GitHub one (installation token) stored
    before: the run's git, its upload kept for download and the deletion log lose them."""
    urls = {
        "11111111-1111-4111-8111-111111111111": "https://gitlab-ci-token:glcbt-64_s3cret@gitlab.example/g/app.git",
        "22222222-2222-4222-8222-222222222222": "https://x-access-token:ghs_s3cret@github.com/acme/app",
        "33333333-3333-4333-8333-333333333333": "git@github.com:acme/app.git",
    }
    _migrate(settings, scratch_engine, "upgrade", BEFORE_SCOPED_TOKENS)
    with scratch_engine.begin() as db:
        db.execute(text("INSERT INTO hardware (id, name) VALUES (1, 'm')"))
        db.execute(text("INSERT INTO suite (name) VALUES ('s')"))
        for run_id, url in urls.items():
            body = f'{{"suite": "s", "git": {{"repo": "{url}", "branch": "main"}}}}'.encode()
            db.execute(
                text(
                    "INSERT INTO run (id, suite, started_at, git, branch, hardware_id,"
                    " result_count, upload_body, upload_sha256) VALUES (:id, 's', now(),"
                    " jsonb_build_object('repo', CAST(:url AS text)), 'main', 1, 0, :body, '')"
                ),
                {"id": run_id, "url": url, "body": body},
            )
            db.execute(
                text(
                    "INSERT INTO run_deletion (run_id, suite, hardware, started_at,"
                    " result_count, deleted_by, upload_body) VALUES (:id, 's', 'm', now(), 0,"
                    " 'admin', :body)"
                ),
                {"id": run_id, "body": body},
            )
    _migrate(settings, scratch_engine, "upgrade", "head")
    with scratch_engine.connect() as db:
        repos = dict(db.execute(text("SELECT id::text, git->>'repo' FROM run")).tuples().all())
        assert repos == {
            "11111111-1111-4111-8111-111111111111": "https://gitlab.example/g/app.git",
            "22222222-2222-4222-8222-222222222222": "https://github.com/acme/app",
            "33333333-3333-4333-8333-333333333333": "git@github.com:acme/app.git",
        }
        for table in ("run", "run_deletion"):
            bodies = db.scalars(text(f"SELECT convert_from(upload_body, 'UTF8') FROM {table}"))  # noqa: S608
            texts = list(bodies)
            assert not any("s3cret" in body for body in texts), texts
            assert any('"repo": "https://gitlab.example/g/app.git"' in body for body in texts)


BEFORE_RUN_HARDWARE_BACKFILL = "3f9a1c7e5b20"


def test_upgrade_gives_old_runs_the_hardware_their_upload_sent(
    settings: Settings, scratch_engine: Engine
) -> None:
    """Runs stored while uploads were merged into the machine's description: each gets the
    `hardware` its upload sent; an unreadable upload, the machine's; a newer run keeps its."""
    sent = {
        "11111111-1111-4111-8111-111111111111": b'{"suite": "s", "hardware": {"name": "m",'
        b' "cpu": "EPYC 7763", "cores": 8, "os": null, "disk": "nvme"}}',
        "22222222-2222-4222-8222-222222222222": b'{"suite": "s", "hardware": {"name": "m"}}',
        "33333333-3333-4333-8333-333333333333": b"not json",
    }
    _migrate(settings, scratch_engine, "upgrade", BEFORE_SCOPED_TOKENS)
    with scratch_engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO hardware (id, name, info)"
                ' VALUES (1, \'m\', \'{"cpu": "merged", "cores": 16}\')'
            )
        )
        db.execute(text("INSERT INTO suite (name) VALUES ('s')"))
        for run_id, body in sent.items():
            db.execute(
                text(
                    "INSERT INTO run (id, suite, started_at, branch, hardware_id, result_count,"
                    " upload_body, upload_sha256) VALUES (:id, 's', now(), 'main', 1, 0, :body,"
                    " '')"
                ),
                {"id": run_id, "body": body},
            )
    _migrate(settings, scratch_engine, "upgrade", BEFORE_RUN_HARDWARE_BACKFILL)
    newer = "44444444-4444-4444-8444-444444444444"
    with scratch_engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO run (id, suite, started_at, branch, hardware_id, hardware_info,"
                " result_count, upload_body, upload_sha256) VALUES (:id, 's', now(), 'main', 1,"
                " '{\"cpu\": \"its own\"}', 0, '', '')"
            ),
            {"id": newer},
        )
    _migrate(settings, scratch_engine, "upgrade", "head")
    expected = {
        "11111111-1111-4111-8111-111111111111": {"cpu": "EPYC 7763", "cores": 8, "disk": "nvme"},
        "22222222-2222-4222-8222-222222222222": {},
        "33333333-3333-4333-8333-333333333333": {"cpu": "merged", "cores": 16},
        newer: {"cpu": "its own"},
    }
    with scratch_engine.connect() as db:
        kept = dict(db.execute(text("SELECT id::text, hardware_info FROM run")).tuples().all())
        assert kept == expected
    _migrate(settings, scratch_engine, "downgrade", BEFORE_RUN_HARDWARE_BACKFILL)
    with scratch_engine.connect() as db:
        kept = dict(db.execute(text("SELECT id::text, hardware_info FROM run")).tuples().all())
        assert kept == expected
