"""every write names the token that made it: edits, deletions, undoings and revocations

3c9e5a7f1b24 named the token of each creation; these writes did not:
- an annotation's edit (`annotation.updated_by`, `updated_token_id`) and deletion
  (`annotation_deletion` keeps the note as it read, who deleted it and when);
- a curation mark and its undoing (`series_curation.token_id`, `removed_token_id`);
- a machine's shared description (`hardware.updated_by`, `updated_token_id`);
- a suite's notification target (`notification_target.token_id`);
- a token's revocation (`api_token.revoked_by`; null: the CLI on the server).
Rows written before stay null: who made them was not kept.

Revision ID: 6c8a2f4e9b17
Revises: 2d7e9b4a6c31
Create Date: 2026-11-28 15:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "6c8a2f4e9b17"
down_revision: str | None = "2d7e9b4a6c31"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (table, column) of each new reference to the token that wrote.
_TOKEN_COLUMNS = (
    ("annotation", "updated_token_id"),
    ("series_curation", "token_id"),
    ("series_curation", "removed_token_id"),
    ("hardware", "updated_token_id"),
    ("notification_target", "token_id"),
    ("api_token", "revoked_by"),
)
# Beside the token's id, its name, where the table keeps names (`created_by`).
_NAME_COLUMNS = (("annotation", "updated_by"), ("hardware", "updated_by"))


def upgrade() -> None:
    for table, column in _NAME_COLUMNS:
        op.add_column(table, sa.Column(column, sa.Text(), nullable=True))
    for table, column in _TOKEN_COLUMNS:
        op.add_column(
            table,
            sa.Column(
                column,
                sa.Integer(),
                sa.ForeignKey("api_token.id", name=f"fk_{table}_{column}_api_token"),
                nullable=True,
            ),
        )
    op.create_table(
        "annotation_deletion",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("annotation_id", sa.BigInteger(), nullable=False),
        sa.Column("annotation", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("deleted_by", sa.Text(), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column(
            "deleted_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["token_id"], ["api_token.id"], name=op.f("fk_annotation_deletion_token_id_api_token")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_annotation_deletion")),
    )
    op.create_index(
        op.f("ix_annotation_deletion_annotation_id"), "annotation_deletion", ["annotation_id"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_annotation_deletion_annotation_id"), table_name="annotation_deletion")
    op.drop_table("annotation_deletion")
    for table, column in _TOKEN_COLUMNS + _NAME_COLUMNS:
        op.drop_column(table, column)
