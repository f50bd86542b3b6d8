"""history index covers unit and stats, so a history read never visits the table

Revision ID: 3c1d2e4f5a6b
Revises: e942005fb9c9
Create Date: 2026-11-21 23:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "3c1d2e4f5a6b"
down_revision: str | None = "e942005fb9c9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_result_series_started_at", table_name="result")
    op.create_index(
        "ix_result_series_started_at",
        "result",
        ["series_id", "started_at"],
        postgresql_include=["value_base", "value", "run_id", "unit", "stats"],
    )


def downgrade() -> None:
    op.drop_index("ix_result_series_started_at", table_name="result")
    op.create_index(
        "ix_result_series_started_at",
        "result",
        ["series_id", "started_at"],
        postgresql_include=["value_base", "value", "run_id"],
    )
