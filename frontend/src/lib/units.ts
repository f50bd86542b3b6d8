/**
 * Units of the upload contract, their dimension and readable scaling.
 * Base units match the service's `base_unit`: s, B, B/s, ops/s, req/s, count, percent.
 */

interface Step {
  /** Appended to the number: " ms", "k ops/s", "%". */
  suffix: string;
  /** Size of one step in the base unit. */
  factor: number;
}

type Ladder = readonly Step[];

const step = (suffix: string, factor: number): Step => ({ suffix, factor });

const TIME: Ladder = [step(" ns", 1e-9), step(" µs", 1e-6), step(" ms", 1e-3), step(" s", 1)];
const BYTES: Ladder = [step(" B", 1), step(" KiB", 1024), step(" MiB", 1024 ** 2), step(" GiB", 1024 ** 3)];
const BYTES_PER_S: Ladder = BYTES.map((s) => step(`${s.suffix}/s`, s.factor));
const BYTES_PER_S_SI: Ladder = [step(" B/s", 1), step(" KB/s", 1e3), step(" MB/s", 1e6), step(" GB/s", 1e9)];
/** 762k ops/s, 14.3M: the prefix sticks to the number, the unit follows after a space. */
const siLadder = (unit: string): Ladder =>
  ["", "k", "M", "G"].map((prefix, i) => step(`${prefix}${unit ? ` ${unit}` : ""}`, 1000 ** i));
const OPS = siLadder("ops/s");
const REQS = siLadder("req/s");
const COUNT = siLadder("");
const PERCENT: Ladder = [step("%", 1)];

interface UnitInfo {
  base: string;
  factor: number;
  ladder: Ladder;
}

const info = (base: string, factor: number, ladder: Ladder): UnitInfo => ({ base, factor, ladder });

const UNITS: Record<string, UnitInfo> = {
  ns: info("s", 1e-9, TIME),
  us: info("s", 1e-6, TIME),
  ms: info("s", 1e-3, TIME),
  s: info("s", 1, TIME),
  B: info("B", 1, BYTES),
  KiB: info("B", 1024, BYTES),
  MiB: info("B", 1024 ** 2, BYTES),
  GiB: info("B", 1024 ** 3, BYTES),
  "B/s": info("B/s", 1, BYTES_PER_S),
  "KiB/s": info("B/s", 1024, BYTES_PER_S),
  "MiB/s": info("B/s", 1024 ** 2, BYTES_PER_S),
  "GiB/s": info("B/s", 1024 ** 3, BYTES_PER_S),
  "KB/s": info("B/s", 1e3, BYTES_PER_S_SI),
  "MB/s": info("B/s", 1e6, BYTES_PER_S_SI),
  "GB/s": info("B/s", 1e9, BYTES_PER_S_SI),
  "ops/s": info("ops/s", 1, OPS),
  "req/s": info("req/s", 1, REQS),
  count: info("count", 1, COUNT),
  percent: info("percent", 1, PERCENT),
};

const ALIASES: Record<string, string> = { µs: "us", μs: "us" };

function unitInfo(unit: string): UnitInfo {
  const known = UNITS[ALIASES[unit] ?? unit];
  return known ?? info(unit, 1, [step(unit ? ` ${unit}` : "", 1)]);
}

/** Converts a value in `unit` to its base unit. */
export function toBase(value: number, unit: string): number {
  return value * unitInfo(unit).factor;
}

/** A number with three significant digits, or as a whole number from 1,000 up. */
export function formatNumber(value: number, significant = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(significant)).toLocaleString("en-US", { maximumFractionDigits: 12 });
}

/** One display unit for a set of values, e.g. a chart axis. */
export interface Scale {
  /** The display unit without the number: "ms", "k ops/s", "%". */
  label: string;
  /** Converts a value in the scale's source unit into display units. */
  toDisplay: (value: number) => number;
  /** A display-unit number with the unit: "1.23 ms". */
  format: (displayValue: number, significant?: number) => string;
}

function pickStep(ladder: Ladder, magnitude: number): Step {
  let chosen = ladder[0] as Step;
  for (const candidate of ladder) {
    if (magnitude >= candidate.factor * 0.9995) chosen = candidate;
  }
  return chosen;
}

/** The readable display unit for values given in `unit`, chosen by their largest magnitude. */
export function scaleFor(values: readonly number[], unit: string): Scale {
  const { factor, ladder } = unitInfo(unit);
  const magnitude = Math.max(0, ...values.filter(Number.isFinite).map((v) => Math.abs(v * factor)));
  const chosen = pickStep(ladder, magnitude);
  const ratio = factor / chosen.factor;
  return {
    label: chosen.suffix.trim() || unit,
    toDisplay: (value) => value * ratio,
    format: (displayValue, significant) => `${formatNumber(displayValue, significant)}${chosen.suffix}`,
  };
}

/** A value in a readable unit: formatValue(1234, "us") → "1.23 ms". */
export function formatValue(value: number, unit: string, significant = 3): string {
  const scale = scaleFor([value], unit);
  return scale.format(scale.toDisplay(value), significant);
}

export type DirectionLike = "lower" | "higher" | string;

export function directionText(direction: DirectionLike): string {
  if (direction === "lower") return "lower is better";
  if (direction === "higher") return "higher is better";
  return "direction varies";
}
