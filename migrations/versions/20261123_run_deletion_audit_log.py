"""run deletions: the audit log of DELETE /runs/{id} and `benchboard run delete`

Revision ID: 5a1c7e3b9d20
Revises: 4e7a9c2d1b58
Create Date: 2026-11-23 13:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5a1c7e3b9d20"
down_revision: str | None = "4e7a9c2d1b58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_deletion",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.UUID(), nullable=False),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("hardware", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result_count", sa.Integer(), nullable=False),
        sa.Column("deleted_by", sa.Text(), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("upload_body", sa.LargeBinary(), nullable=False),
        sa.Column(
            "deleted_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["token_id"], ["api_token.id"], name=op.f("fk_run_deletion_token_id_api_token")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_deletion")),
    )
    op.create_index(op.f("ix_run_deletion_run_id"), "run_deletion", ["run_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_run_deletion_run_id"), table_name="run_deletion")
    op.drop_table("run_deletion")
