"""runs stored before `run.hardware_info` keep the machine they were sent, too

Until 3c9e5a7f1b24 an upload's hardware keys were merged into the machine's shared
description, and the run kept only the machine's id; those runs have `hardware_info`
null and show whatever the machine's description says now, which a maintainer may
rewrite. Each run's upload is kept as it was sent, so its `hardware` object (less the
name, which is the machine, and less null keys, as uploads store it) is the run's own
description. An upload that cannot be read as JSON (none that the service accepted)
gets the machine's description as it stands: what the run showed until now.

This reads every old run's upload once; the run table is rewritten for those rows.

Revision ID: 2d7e9b4a6c31
Revises: 3f9a1c7e5b20
Create Date: 2026-11-28 15:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2d7e9b4a6c31"
down_revision: str | None = "3f9a1c7e5b20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# An unreadable body must not stop the migration: PostgreSQL 15 has no `IS JSON` test,
# so the cast is tried in a function that answers null where it fails.
_SENT_HARDWARE = """
CREATE FUNCTION pg_temp.sent_hardware(body bytea) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    sent jsonb;
BEGIN
    sent := convert_from(body, 'UTF8')::jsonb -> 'hardware';
    IF jsonb_typeof(sent) = 'object' THEN
        RETURN jsonb_strip_nulls(sent) - 'name';
    END IF;
    RETURN NULL;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    op.execute(_SENT_HARDWARE)
    op.execute(
        "UPDATE run SET hardware_info = coalesce(pg_temp.sent_hardware(run.upload_body),"
        " hardware.info) FROM hardware"
        " WHERE run.hardware_info IS NULL AND hardware.id = run.hardware_id"
    )
    op.execute("DROP FUNCTION pg_temp.sent_hardware(bytea)")


def downgrade() -> None:
    """Nothing to undo: before this revision a run could already keep its description."""
