"""study pages: a suite's title, description, authors and links; pinned findings

Revision ID: 4e7a9c2d1b58
Revises: 8d3f6a1b2c47
Create Date: 2026-11-23 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "4e7a9c2d1b58"
down_revision: str | None = "8d3f6a1b2c47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("suite", sa.Column("title", sa.Text(), nullable=True))
    op.add_column("suite", sa.Column("description", sa.Text(), nullable=True))
    for column in ("authors", "links"):
        op.add_column(
            "suite",
            sa.Column(
                column,
                postgresql.JSONB(astext_type=sa.Text()),
                server_default="[]",
                nullable=False,
            ),
        )
    op.create_table(
        "finding",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("numerator_series_id", sa.BigInteger(), nullable=False),
        sa.Column("numerator_run_id", sa.UUID(), nullable=False),
        sa.Column("numerator_label", sa.Text(), nullable=False),
        sa.Column("denominator_series_id", sa.BigInteger(), nullable=False),
        sa.Column("denominator_run_id", sa.UUID(), nullable=False),
        sa.Column("denominator_label", sa.Text(), nullable=False),
        sa.Column("context", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_by", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["suite"], ["suite.name"], name=op.f("fk_finding_suite_suite"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["numerator_series_id"],
            ["series.id"],
            name=op.f("fk_finding_numerator_series_id_series"),
        ),
        sa.ForeignKeyConstraint(
            ["numerator_run_id"], ["run.id"], name=op.f("fk_finding_numerator_run_id_run")
        ),
        sa.ForeignKeyConstraint(
            ["denominator_series_id"],
            ["series.id"],
            name=op.f("fk_finding_denominator_series_id_series"),
        ),
        sa.ForeignKeyConstraint(
            ["denominator_run_id"], ["run.id"], name=op.f("fk_finding_denominator_run_id_run")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_finding")),
        sa.UniqueConstraint("suite", "position", name="uq_finding_suite_position"),
    )
    op.create_index("ix_finding_numerator_run_id", "finding", ["numerator_run_id"])
    op.create_index("ix_finding_denominator_run_id", "finding", ["denominator_run_id"])


def downgrade() -> None:
    op.drop_table("finding")
    for column in ("links", "authors", "description", "title"):
        op.drop_column("suite", column)
