"""tokens limited to suites, a read scope, private suites, who did each write

`api_token.suites` lists the suites a token acts on (exact names or `prefix-*`); null,
as every existing token has, is every suite: today's behaviour. `read` tokens read
private suites (`suite.visibility`). `last_used_at` shows in the token list;
`created_by` is the token that made another over the API.

Git URLs with user info (a CI clone URL holds the job's token) are stripped of it in
the stored runs and in the uploads kept for download and in the deletion log.

Each run keeps the machine's description it was sent (`run.hardware_info`); uploads no
longer merge into the machine's shared one. Deleting a run keeps the record: its regressions are retracted (the deletion sets
`run_id` null) with their audit trail, its annotations stay at their time. Writes name
the token that made them (`token_id`) beside its name.

Revision ID: 3c9e5a7f1b24
Revises: f1dd76c6bda8
Create Date: 2026-11-28 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "3c9e5a7f1b24"
down_revision: str | None = "f1dd76c6bda8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# `scheme://user:secret@host/…`: the user info, between `://` and the host's `@`.
_USER_INFO = "^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#@]*@"
_BODY_USER_INFO = '("repo"\\s*:\\s*"[a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#@"]*@'


def _strip_stored_user_info() -> None:
    op.execute(
        sa.text(
            "UPDATE run SET git = jsonb_set(git, '{repo}',"
            " to_jsonb(regexp_replace(git->>'repo', :user_info, '\\1')))"
            " WHERE git->>'repo' ~ :user_info"
        ).bindparams(user_info=_USER_INFO)
    )
    for table in ("run", "run_deletion"):
        op.execute(
            sa.text(
                f"UPDATE {table} SET upload_body = convert_to(regexp_replace("  # noqa: S608
                "convert_from(upload_body, 'UTF8'), :user_info, '\\1', 'g'), 'UTF8')"
                " WHERE convert_from(upload_body, 'UTF8') ~ :user_info"
            ).bindparams(user_info=_BODY_USER_INFO)
        )


def upgrade() -> None:
    _strip_stored_user_info()
    op.drop_constraint(op.f("ck_api_token_scope"), "api_token", type_="check")
    op.create_check_constraint(
        op.f("ck_api_token_scope"), "api_token", "scope IN ('read', 'upload', 'maintain', 'admin')"
    )
    op.add_column("api_token", sa.Column("suites", postgresql.ARRAY(sa.Text()), nullable=True))
    op.add_column(
        "api_token",
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("api_token.id", name="fk_api_token_created_by_api_token"),
            nullable=True,
        ),
    )
    op.add_column("api_token", sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "suite", sa.Column("visibility", sa.Text(), server_default="public", nullable=False)
    )
    op.create_check_constraint(
        op.f("ck_suite_visibility"), "suite", "visibility IN ('public', 'private')"
    )
    # The machine as each run described it; older runs show the machine's (left null:
    # reading every stored upload back would rewrite the whole run table).
    op.add_column(
        "run", sa.Column("hardware_info", postgresql.JSONB(astext_type=sa.Text()), nullable=True)
    )
    _keep_records_of_deleted_runs("SET NULL")
    op.alter_column("regression", "run_id", nullable=True)
    for table in _BY_TOKEN:
        op.add_column(
            table,
            sa.Column(
                "token_id",
                sa.Integer(),
                sa.ForeignKey("api_token.id", name=f"fk_{table}_token_id_api_token"),
                nullable=True,
            ),
        )


# Tables whose rows a token writes, beside the name they already keep (`actor`,
# `created_by`; a suite's last settings).
_BY_TOKEN = ("regression_event", "annotation", "finding", "suite")


def _keep_records_of_deleted_runs(ondelete: str) -> None:
    for table in ("regression", "annotation"):
        name = op.f(f"fk_{table}_run_id_run")
        op.drop_constraint(name, table, type_="foreignkey")
        op.create_foreign_key(name, table, "run", ["run_id"], ["id"], ondelete=ondelete)


def downgrade() -> None:
    op.drop_column("run", "hardware_info")
    for table in _BY_TOKEN:
        op.drop_column(table, "token_id")
    op.execute("DELETE FROM regression WHERE run_id IS NULL")
    op.alter_column("regression", "run_id", nullable=False)
    _keep_records_of_deleted_runs("CASCADE")
    op.drop_constraint(op.f("ck_suite_visibility"), "suite", type_="check")
    op.drop_column("suite", "visibility")
    op.drop_column("api_token", "last_used_at")
    op.drop_column("api_token", "created_by")
    op.drop_column("api_token", "suites")
    op.drop_constraint(op.f("ck_api_token_scope"), "api_token", type_="check")
    op.execute("DELETE FROM api_token WHERE scope = 'read'")
    op.create_check_constraint(
        op.f("ck_api_token_scope"), "api_token", "scope IN ('upload', 'maintain', 'admin')"
    )
