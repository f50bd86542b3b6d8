"""Alembic is the only source of the schema: the models and vocabularies must agree with it."""

import re

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, text

from benchboard.models import Base
from benchboard.vocabulary import CHANGE_DIRECTIONS, TOKEN_SCOPES, TRIAGE_STATUSES
from benchboard_ingest.vocabulary import DIRECTIONS, MODES


def test_models_match_the_migrated_schema(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
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
