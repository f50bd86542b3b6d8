"""annotation edits and deletions name the token that made them

Creating a note recorded its token; editing or deleting it did not. `annotation` keeps
the token that last edited it (`updated_by`, `updated_token_id`); `annotation_deletion`
keeps each deleted note as it read, with who deleted it and when.

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


def upgrade() -> None:
    op.add_column("annotation", sa.Column("updated_by", sa.Text(), nullable=True))
    op.add_column(
        "annotation",
        sa.Column(
            "updated_token_id",
            sa.Integer(),
            sa.ForeignKey("api_token.id", name="fk_annotation_updated_token_id_api_token"),
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
    op.drop_column("annotation", "updated_token_id")
    op.drop_column("annotation", "updated_by")
