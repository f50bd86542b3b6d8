"""Packing runs into `POST /api/v1/runs/batch` bodies, bounded by results, runs and bytes.

The service stores a batch in one transaction, set-based, and runs change detection once
per series of it, so a history goes in as few batches as the bounds allow: by default
20,000 results, which holds most histories whole (about a second per batch on a busy
2-core service) while keeping the progress bar moving. The byte bound stays well under
the service's default body limit (32 MiB); a run bigger than it goes alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# The service's bounds for one batch (it imports them from here): a batch costs it at most
# what one run may, 100,000 results.
MAX_BATCH_RUNS = 5_000
MAX_BATCH_RESULTS = 100_000
DEFAULT_BATCH_RESULTS = 20_000
DEFAULT_BATCH_BYTES = 24 * 1024 * 1024
_OPEN, _CLOSE, _COMMA = b'{"runs":[', b"]}", b","


@dataclass(frozen=True)
class Batch:
    """One request body and what it holds."""

    body: bytes
    run_ids: list[str]
    result_count: int


def pack(
    runs: list[dict[str, Any]],
    *,
    max_results: int = DEFAULT_BATCH_RESULTS,
    max_bytes: int = DEFAULT_BATCH_BYTES,
    max_runs: int = MAX_BATCH_RUNS,
) -> Iterator[Batch]:
    """Consecutive runs into batches; each run serialized once, as it will be sent."""
    parts: list[bytes] = []
    ids: list[str] = []
    results = size = 0
    for run in runs:
        part = json.dumps(run, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        count = len(run["results"])
        body = len(_OPEN) + size + len(_COMMA) + len(part) + len(_CLOSE)  # with this run
        full = len(parts) >= max_runs or results + count > max_results or body > max_bytes
        if parts and full:
            yield Batch(_OPEN + _COMMA.join(parts) + _CLOSE, ids, results)
            parts, ids, results, size = [], [], 0, 0
        size += (len(_COMMA) if parts else 0) + len(part)
        parts.append(part)
        ids.append(run["id"])
        results += count
    if parts:
        yield Batch(_OPEN + _COMMA.join(parts) + _CLOSE, ids, results)
