"""Building one contract v1 run from parsed results and what the caller says about it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from .model import SourceRun

# The contract's `suite`: a slug.
SUITE_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
# The contract's bounds on a benchmark's name and on a run's maps (keys, texts).
MAX_NAME = 200
MAX_MAP_KEYS = 100
MAX_TEXT = 2_000


@dataclass
class RunOptions:
    suite: str
    hardware: dict[str, Any]
    git: dict[str, str] = field(default_factory=dict)
    run_id: str | None = None
    name: str | None = None
    started_at: str | None = None
    source_url: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    environment: dict[str, str] = field(default_factory=dict)


def now_rfc3339() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def build_run(results: list[dict[str, Any]], options: RunOptions) -> dict[str, Any]:
    """The run document; a fresh UUID unless the caller chose one (retries reuse it)."""
    run: dict[str, Any] = {
        "id": options.run_id or str(uuid.uuid4()),
        "suite": options.suite,
        "started_at": options.started_at or now_rfc3339(),
        "hardware": options.hardware,
        "results": results,
    }
    optional = {
        "name": options.name,
        "source_url": options.source_url,
        "git": options.git,
        "tags": options.tags,
        "environment": options.environment,
    }
    run.update({key: value for key, value in optional.items() if value})
    return run


def with_record(options: RunOptions, record: SourceRun | None) -> RunOptions:
    """`options` with what a record says of its run (another tracker's, or a whole contract
    run document) filling what they leave open: its id, date, name, source, git fields,
    machine fields, tags and environment entries. The options' own values win, field by
    field (the caller's flags or query)."""
    if record is None:
        return options
    return replace(
        options,
        hardware={**fitted_hardware(record.hardware or {}), **options.hardware},
        git={**record.git, **options.git},
        run_id=options.run_id or record.run_id,
        name=options.name or record.name,
        started_at=options.started_at or record.started_at or None,
        source_url=options.source_url or record.source_url,
        tags={**fitted_map(record.tags), **options.tags},
        environment={**fitted_map(record.environment), **options.environment},
    )


def fitted_hardware(hardware: Mapping[str, Any]) -> dict[str, Any]:
    return fitted_map(hardware, limit=MAX_MAP_KEYS + 1)  # `name` and 100 further keys


def fitted_map(values: Mapping[str, Any], *, limit: int = MAX_MAP_KEYS) -> dict[str, Any]:
    """At most the contract's number of keys, texts cut to its length (a Conbench context
    or an LNT machine can hold more than a run's map may)."""
    fitted: dict[str, Any] = {}
    for key, value in values.items():
        if len(fitted) < limit and len(key) <= MAX_NAME:
            fitted[key] = value[:MAX_TEXT] if isinstance(value, str) else value
    return fitted
