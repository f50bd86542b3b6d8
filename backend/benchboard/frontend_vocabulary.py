"""The vocabularies as a TypeScript module for the dashboard (frontend/src/api/vocabulary.ts).

The front end formats and converts values with the same unit table the service stores
them with; `make openapi` writes the file and `api_drift` fails when it is stale.
"""

import json
from dataclasses import asdict

from benchboard.compare.baseline import word_change_size
from benchboard.findings.wording import format_factor, word_ratio
from benchboard.series.schemas import SERIES_PAGE_MAX
from benchboard.vocabulary import (
    CHANGE_DIRECTIONS,
    CHANGE_WORDS,
    TRIAGE_STATUSES,
    ChangeDirection,
)
from benchboard_ingest.vocabulary import (
    DIRECTIONS,
    MODES,
    RESULT_IDENTITY_FIELDS,
    SERIES_IDENTITY_FIELDS,
    SPEED_DIMENSIONS,
    UNIT_ALIASES,
    UNITS,
    Direction,
)

HEADER = """/**
 * This file was generated from the service's vocabularies (`benchboard vocabulary`).
 * Do not make direct changes to the file: run `make openapi`.
 */
"""


def _const(name: str, value: object) -> str:
    return f"export const {name} = {json.dumps(value, indent=2, ensure_ascii=False)} as const;\n"


def _wording_examples() -> list[dict[str, object]]:
    """The service's own wording of a few changes: the dashboard's tests check that its
    sentences read the same (one wording, two languages)."""
    changes: list[tuple[float, ChangeDirection, str]] = [
        (0.25, "regression", "s"),
        (-0.08, "regression", "ops/s"),
        (0.031, "regression", "B"),
        (-0.6, "improvement", "s"),
        (0.004, "improvement", "count"),
        (2.5, "regression", "percent"),
    ]
    return [
        {
            "relative_change": fraction,
            "direction": direction,
            "base_unit": unit,
            "text": word_change_size(fraction, direction, base_unit=unit),
        }
        for fraction, direction, unit in changes
    ]


def _ratio_examples() -> list[dict[str, object]]:
    """The verdict and factor a study's finding gives a few ratios: the Modes page and the
    leaderboard must word the same ratio the same way."""
    ratios: list[tuple[float, Direction, str, str]] = [
        (2.087, "lower", "s", "time"),
        (1 / 1.048, "lower", "s", "time"),
        (0.403, "higher", "ops/s", "throughput"),
        (2.0, "lower", "count", "allocated_objects"),
        (0.5, "higher", "B", "cache_size"),
        (1.0004, "lower", "s", "time"),
    ]
    examples: list[dict[str, object]] = []
    for ratio, direction, unit, metric in ratios:
        _, verdict, factor = word_ratio(
            ratio,
            numerator="async",
            denominator="sync",
            metric=metric,
            base_unit=unit,
            direction=direction,
            context=None,
        )
        examples.append(
            {
                "ratio": ratio,
                "direction": direction,
                "base_unit": unit,
                "metric": metric,
                "verdict": verdict,
                "factor": format_factor(factor),
            }
        )
    return examples


def typescript_vocabulary() -> str:
    units = {
        name: {k: v for k, v in asdict(unit).items() if k != "name"} for name, unit in UNITS.items()
    }
    return "\n".join(
        [
            HEADER,
            _const("UNITS", units),
            _const("UNIT_ALIASES", UNIT_ALIASES),
            _const("DIRECTIONS", list(DIRECTIONS)),
            _const("MODES", list(MODES)),
            _const("SERIES_IDENTITY_FIELDS", list(SERIES_IDENTITY_FIELDS)),
            _const("RESULT_IDENTITY_FIELDS", list(RESULT_IDENTITY_FIELDS)),
            _const("SPEED_DIMENSIONS", sorted(SPEED_DIMENSIONS)),
            _const("CHANGE_DIRECTIONS", list(CHANGE_DIRECTIONS)),
            _const("CHANGE_WORDS", CHANGE_WORDS),
            _const("WORDING_EXAMPLES", _wording_examples()),
            _const("RATIO_EXAMPLES", _ratio_examples()),
            _const("TRIAGE_STATUSES", list(TRIAGE_STATUSES)),
            _const("SERIES_PAGE_MAX", SERIES_PAGE_MAX),
            "export type UnitName = keyof typeof UNITS;\n",
            'export type UnitDimension = (typeof UNITS)[UnitName]["dimension"];\n',
        ]
    )
