"""A series' identity: the contract's identity fields, hashed once when results are written."""

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson

from benchboard import exact_json


def canonical_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Integral floats become ints so that `10000` and `10000.0` name the same series
    (those that fit 64 bits: series stored before integers past 64 bits were kept
    exactly hold them as floats, and keep their fingerprints)."""
    return {key: _canonical_number(value) for key, value in params.items()}


def _canonical_number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


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
    identity = [
        suite,
        benchmark,
        canonical_params(params),
        language,
        implementation,
        mode,
        variant,
        hardware,
        metric,
    ]
    return hashlib.sha256(exact_json.dumps(identity, option=orjson.OPT_SORT_KEYS)).digest()
