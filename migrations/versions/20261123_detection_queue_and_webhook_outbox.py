"""detection queue and webhook outbox: background work leaves the web processes

Revision ID: 8d3f6a1b2c47
Revises: 7b9e4c2a1d35
Create Date: 2026-11-23 08:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "8d3f6a1b2c47"
down_revision: str | None = "7b9e4c2a1d35"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _now() -> sa.TextClause:
    return sa.text("now()")


def upgrade() -> None:
    op.create_table(
        "detection_queue",
        sa.Column("series_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), server_default=_now(), nullable=False),
        sa.Column("requests", sa.Integer(), server_default="1", nullable=False),
        sa.Column("claimed_by", sa.BigInteger(), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("not_before", sa.DateTime(timezone=True), server_default=_now(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("series_id", name=op.f("pk_detection_queue")),
    )
    op.create_index("ix_detection_queue_queued_at", "detection_queue", ["queued_at"])
    op.create_table(
        "webhook_delivery",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("regression_id", sa.BigInteger(), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=_now(), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column(
            "next_attempt_at", sa.DateTime(timezone=True), server_default=_now(), nullable=False
        ),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("gave_up_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["regression_id"],
            ["regression.id"],
            name=op.f("fk_webhook_delivery_regression_id_regression"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_delivery")),
    )
    op.create_index(
        op.f("ix_webhook_delivery_regression_id"), "webhook_delivery", ["regression_id"]
    )
    op.create_index(
        "ix_webhook_delivery_due",
        "webhook_delivery",
        ["next_attempt_at"],
        postgresql_where=sa.text("delivered_at IS NULL AND gave_up_at IS NULL"),
    )
    op.create_index(
        "ix_result_series_started_at_with_samples",
        "result",
        ["series_id", "started_at"],
        postgresql_where=sa.text("samples IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_result_series_started_at_with_samples", table_name="result")
    op.drop_table("webhook_delivery")
    op.drop_table("detection_queue")
