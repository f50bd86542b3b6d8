"""Clones one stored run N times, an hour apart, with a slowly drifting noisy value.

    <repo>/.venv/bin/python frontend/bench/clone_runs.py DATA_DIR RUN_ID COUNT

For the front-end speed bench only: it writes straight into the embedded database of DATA_DIR
(as the service stores runs: run rows, then result rows), because 100,000 uploads through the
API take about half an hour here. The service must already run on DATA_DIR.
"""

import sys
from pathlib import Path

import psycopg

from benchboard.config import Settings
from benchboard.database_server import libpq_url, resolve_database_url

CLONE_SQL = """
WITH source AS (SELECT * FROM run WHERE id = %(run)s),
clones AS (
    INSERT INTO run (id, suite, name, started_at, source_url, git, hardware_id, environment,
                     tags, result_count, upload_body, upload_sha256)
    SELECT gen_random_uuid(), suite, name, started_at + g * interval '1 hour', source_url, git,
           hardware_id, environment, tags, result_count, upload_body, upload_sha256
    FROM source, generate_series(1, %(count)s) AS g
    RETURNING id, started_at
)
INSERT INTO result (run_id, series_id, started_at, value, unit, value_base, stats)
SELECT clones.id, r.series_id, clones.started_at, drift.value, r.unit,
       drift.value * (r.value_base / r.value), NULL
FROM clones
JOIN result r ON r.run_id = %(run)s
CROSS JOIN LATERAL (
    SELECT r.value * (1 + 0.1 * sin(extract(epoch FROM clones.started_at) / 3.6e5)
                      + 0.03 * (random() - 0.5)) AS value
) AS drift
"""


def main() -> None:
    data_dir, run_id, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    settings = Settings().model_copy(update={"database_url": None, "data_dir": data_dir})
    with psycopg.connect(libpq_url(resolve_database_url(settings))) as conn:
        conn.execute(CLONE_SQL, {"run": run_id, "count": count})
        conn.commit()
    print(f"cloned run {run_id} {count} times")


if __name__ == "__main__":
    main()
