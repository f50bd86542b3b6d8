"""detection evidence and provisional changes: every detection states what it rests on

Revision ID: 9e4a7c3b5d21
Revises: 9c4b1e7f2a60
Create Date: 2026-11-23 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "9e4a7c3b5d21"
down_revision: str | None = "9c4b1e7f2a60"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Changes stored before this carry no evidence (null); they were all rank-test findings
    # with three runs after, hence not provisional.
    op.add_column(
        "regression",
        sa.Column("provisional", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column(
        "regression", sa.Column("evidence", postgresql.JSONB(astext_type=sa.Text()), nullable=True)
    )


def downgrade() -> None:
    op.drop_column("regression", "evidence")
    op.drop_column("regression", "provisional")
