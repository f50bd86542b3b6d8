"""Upload bodies for tests: one valid run, changed field by field by each test."""

import json
import uuid
from copy import deepcopy
from importlib import resources
from typing import Any


def result(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "benchmark": "file-write-tiny",
        "params": {"writes": 10000, "payload_bytes": 13},
        "language": "dart",
        "implementation": "dart:io",
        "mode": "async",
        "variant": "sequential",
        "metric": "time_per_op",
        "unit": "us",
        "value": 119.898,
    }
    body.update(overrides)
    return body


def run(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "suite": "sync-vs-async-io",
        "name": "Dart tiny file writes",
        "started_at": "2025-03-20T12:00:00Z",
        "hardware": {"name": "test-machine", "cpu": "Test CPU", "cores": 8},
        "results": [result()],
    }
    body.update(overrides)
    return body


def seed_study(name: str) -> dict[str, Any]:
    data = (resources.files("benchboard") / "demo" / name).read_text()
    loaded: dict[str, Any] = json.loads(data)
    return deepcopy(loaded)
