"""Building one contract v1 run from parsed results and what the caller says about it."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

# The contract's `suite`: a slug.
SUITE_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")


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
