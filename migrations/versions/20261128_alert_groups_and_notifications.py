"""alert groups and notifications: changes grouped by cause, announced once per group

`alert_group` holds one row per cause in a suite (a git commit across machines and branch
views, else a run); `regression.group_id` places each change in one. A maintainer triages
a group in one request. `notification_target` lists a suite's Apprise URLs;
`notification_delivery` is their outbox, unique per target and group, so a group is never
announced twice to one target. `series_curation` records a maintainer's outlier marks and
baseline resets, and their undoing.

Revision ID: 3f9a1c7e5b20
Revises: 3c9e5a7f1b24
Create Date: 2026-11-28 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "3f9a1c7e5b20"
down_revision: str | None = "3c9e5a7f1b24"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created_at() -> sa.Column[sa.DateTime]:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "alert_group",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("cause", sa.Text(), nullable=False),
        sa.Column("commit", sa.Text(), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_alert_group"),
        sa.UniqueConstraint("suite", "cause", name="uq_alert_group_suite_cause"),
    )
    op.add_column("regression", sa.Column("group_id", sa.BigInteger(), nullable=True))
    op.create_foreign_key(
        "fk_regression_group_id_alert_group",
        "regression",
        "alert_group",
        ["group_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.create_index("ix_regression_group_id", "regression", ["group_id"])
    op.create_table(
        "series_curation",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("series_id", sa.BigInteger(), nullable=False),
        sa.Column("run_id", sa.UUID(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_by", sa.Text(), nullable=False),
        _created_at(),
        sa.Column("removed_by", sa.Text(), nullable=True),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('outlier', 'baseline_reset')", name="ck_series_curation_kind"),
        sa.ForeignKeyConstraint(
            ["series_id"],
            ["series.id"],
            name="fk_series_curation_series_id_series",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["run.id"], name="fk_series_curation_run_id_run", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_curation"),
    )
    op.create_index(
        "ix_series_curation_active",
        "series_curation",
        ["series_id", "kind", "run_id"],
        unique=True,
        postgresql_where=sa.text("removed_at IS NULL"),
    )
    op.create_table(
        "notification_target",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("events", JSONB(), nullable=False),
        sa.Column("min_change", sa.Double(), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_notification_target"),
    )
    op.create_index("ix_notification_target_suite", "notification_target", ["suite"])
    op.create_table(
        "notification_delivery",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("target_id", sa.BigInteger(), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        _created_at(),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column(
            "next_attempt_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("gave_up_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["target_id"],
            ["notification_target.id"],
            name="fk_notification_delivery_target_id_notification_target",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["alert_group.id"],
            name="fk_notification_delivery_group_id_alert_group",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notification_delivery"),
        sa.UniqueConstraint("target_id", "group_id", name="uq_notification_delivery_target_id"),
    )
    op.create_index("ix_notification_delivery_group_id", "notification_delivery", ["group_id"])
    op.create_index(
        "ix_notification_delivery_due",
        "notification_delivery",
        ["next_attempt_at"],
        postgresql_where=sa.text("delivered_at IS NULL AND gave_up_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_table("notification_delivery")
    op.drop_table("notification_target")
    op.drop_table("series_curation")
    op.drop_index("ix_regression_group_id", table_name="regression")
    op.drop_constraint("fk_regression_group_id_alert_group", "regression", type_="foreignkey")
    op.drop_column("regression", "group_id")
    op.drop_table("alert_group")
