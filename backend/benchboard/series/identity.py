"""A series' identity: the contract's identity fields, hashed once when results are written."""

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson

from benchboard import exact_json
from benchboard_ingest.vocabulary import SERIES_IDENTITY_FIELDS, canonical_params


def series_fingerprint(
    *,
    suite: str,
    benchmark: str,
    params: Mapping[str, Any],
    language: str,
    implementation: str | None,
    mode: str | None,
    variant: str | None,
    hardware: str,
    metric: str,
) -> bytes:
    fields = {
        "suite": suite,
        "benchmark": benchmark,
        "params": canonical_params(params),
        "language": language,
        "implementation": implementation,
        "mode": mode,
        "variant": variant,
        "hardware": hardware,
        "metric": metric,
    }
    identity = [fields[name] for name in SERIES_IDENTITY_FIELDS]
    return hashlib.sha256(exact_json.dumps(identity, option=orjson.OPT_SORT_KEYS)).digest()
