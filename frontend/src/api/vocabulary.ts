/**
 * This file was generated from the service's vocabularies (`benchboard vocabulary`).
 * Do not make direct changes to the file: run `make openapi`.
 */

export const UNITS = {
  "ns": {
    "dimension": "time",
    "base_unit": "s",
    "factor": 1e-09,
    "default_direction": "lower",
    "prefixes": "decimal"
  },
  "us": {
    "dimension": "time",
    "base_unit": "s",
    "factor": 1e-06,
    "default_direction": "lower",
    "prefixes": "decimal"
  },
  "ms": {
    "dimension": "time",
    "base_unit": "s",
    "factor": 0.001,
    "default_direction": "lower",
    "prefixes": "decimal"
  },
  "s": {
    "dimension": "time",
    "base_unit": "s",
    "factor": 1.0,
    "default_direction": "lower",
    "prefixes": "decimal"
  },
  "B/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1.0,
    "default_direction": "higher",
    "prefixes": "binary"
  },
  "KiB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1024.0,
    "default_direction": "higher",
    "prefixes": "binary"
  },
  "MiB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1048576.0,
    "default_direction": "higher",
    "prefixes": "binary"
  },
  "GiB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1073741824.0,
    "default_direction": "higher",
    "prefixes": "binary"
  },
  "KB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1000.0,
    "default_direction": "higher",
    "prefixes": "decimal"
  },
  "MB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1000000.0,
    "default_direction": "higher",
    "prefixes": "decimal"
  },
  "GB/s": {
    "dimension": "bandwidth",
    "base_unit": "B/s",
    "factor": 1000000000.0,
    "default_direction": "higher",
    "prefixes": "decimal"
  },
  "B": {
    "dimension": "size",
    "base_unit": "B",
    "factor": 1.0,
    "default_direction": "lower",
    "prefixes": "binary"
  },
  "KiB": {
    "dimension": "size",
    "base_unit": "B",
    "factor": 1024.0,
    "default_direction": "lower",
    "prefixes": "binary"
  },
  "MiB": {
    "dimension": "size",
    "base_unit": "B",
    "factor": 1048576.0,
    "default_direction": "lower",
    "prefixes": "binary"
  },
  "GiB": {
    "dimension": "size",
    "base_unit": "B",
    "factor": 1073741824.0,
    "default_direction": "lower",
    "prefixes": "binary"
  },
  "ops/s": {
    "dimension": "operation_rate",
    "base_unit": "ops/s",
    "factor": 1.0,
    "default_direction": "higher",
    "prefixes": "decimal"
  },
  "req/s": {
    "dimension": "request_rate",
    "base_unit": "req/s",
    "factor": 1.0,
    "default_direction": "higher",
    "prefixes": "decimal"
  },
  "count": {
    "dimension": "count",
    "base_unit": "count",
    "factor": 1.0,
    "default_direction": "lower",
    "prefixes": "decimal"
  },
  "percent": {
    "dimension": "percent",
    "base_unit": "percent",
    "factor": 1.0,
    "default_direction": "lower",
    "prefixes": "decimal"
  }
} as const;

export const UNIT_ALIASES = {
  "µs": "us",
  "μs": "us"
} as const;

export const DIRECTIONS = [
  "lower",
  "higher"
] as const;

export const MODES = [
  "sync",
  "async"
] as const;

export const SERIES_IDENTITY_FIELDS = [
  "suite",
  "benchmark",
  "params",
  "language",
  "implementation",
  "mode",
  "variant",
  "hardware",
  "metric"
] as const;

export const RESULT_IDENTITY_FIELDS = [
  "benchmark",
  "params",
  "language",
  "implementation",
  "mode",
  "variant",
  "metric"
] as const;

export const SPEED_DIMENSIONS = [
  "bandwidth",
  "operation_rate",
  "request_rate",
  "time"
] as const;

export const CHANGE_DIRECTIONS = [
  "regression",
  "improvement"
] as const;

export const CHANGE_WORDS = {
  "speed": {
    "regression": "slower",
    "improvement": "faster"
  },
  "other": {
    "regression": "worse",
    "improvement": "better"
  }
} as const;

export const WORDING_EXAMPLES = [
  {
    "relative_change": 0.25,
    "direction": "regression",
    "base_unit": "s",
    "text": "+25.0% slower"
  },
  {
    "relative_change": -0.08,
    "direction": "regression",
    "base_unit": "ops/s",
    "text": "−8.0% slower"
  },
  {
    "relative_change": 0.031,
    "direction": "regression",
    "base_unit": "B",
    "text": "+3.1% worse"
  },
  {
    "relative_change": -0.6,
    "direction": "improvement",
    "base_unit": "s",
    "text": "−60.0% faster"
  },
  {
    "relative_change": 0.004,
    "direction": "improvement",
    "base_unit": "count",
    "text": "+0.4% better"
  },
  {
    "relative_change": 2.5,
    "direction": "regression",
    "base_unit": "percent",
    "text": "+250% worse"
  }
] as const;

export const RATIO_EXAMPLES = [
  {
    "ratio": 2.087,
    "direction": "lower",
    "base_unit": "s",
    "metric": "time",
    "verdict": "slower",
    "factor": "2.09×"
  },
  {
    "ratio": 0.9541984732824427,
    "direction": "lower",
    "base_unit": "s",
    "metric": "time",
    "verdict": "faster",
    "factor": "1.05×"
  },
  {
    "ratio": 0.403,
    "direction": "higher",
    "base_unit": "ops/s",
    "metric": "throughput",
    "verdict": "slower",
    "factor": "2.48×"
  },
  {
    "ratio": 2.0,
    "direction": "lower",
    "base_unit": "count",
    "metric": "allocated_objects",
    "verdict": "more",
    "factor": "2×"
  },
  {
    "ratio": 0.5,
    "direction": "higher",
    "base_unit": "B",
    "metric": "cache_size",
    "verdict": "fewer",
    "factor": "2×"
  },
  {
    "ratio": 1.0004,
    "direction": "lower",
    "base_unit": "s",
    "metric": "time",
    "verdict": "same",
    "factor": "1×"
  }
] as const;

export const TRIAGE_STATUSES = [
  "untriaged",
  "acknowledged",
  "investigating",
  "fixed",
  "wontfix",
  "expected",
  "invalid"
] as const;

export const SERIES_PAGE_MAX = 5000 as const;

export type UnitName = keyof typeof UNITS;

export type UnitDimension = (typeof UNITS)[UnitName]["dimension"];
