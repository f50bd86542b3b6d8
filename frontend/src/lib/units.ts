/**
 * Readable values in the units of the upload contract. What a unit is (its dimension, base unit,
 * factor, prefix system, aliases) comes from the generated vocabulary; this module adds only how
 * each dimension is shown.
 */
import {
  type DIRECTIONS,
  SPEED_DIMENSIONS,
  UNIT_ALIASES,
  UNITS,
  type UnitDimension,
  type UnitName,
} from "../api/vocabulary";

/** Which way is better for a series. */
export type Direction = (typeof DIRECTIONS)[number];

interface Step {
  /** Appended to the number: " ms", "k ops/s", "%". */
  suffix: string;
  /** Size of one step in the base unit. */
  factor: number;
}

type Ladder = readonly Step[];

const step = (suffix: string, factor: number): Step => ({ suffix, factor });

/**
 * How values of a dimension are scaled for display:
 * - `units`: through the vocabulary's units of the dimension in the value's prefix system (and the
 *   base unit): 1.23 ms, 2.91 GiB/s, 1.5 GB/s;
 * - `multipliers`: SI multipliers stuck to the number, then the base unit: 762k ops/s;
 * - `bare multipliers`: the same without a unit name: 14.3M;
 * - `percent`: unscaled, with a percent sign: 12.5%.
 */
const DIMENSION_DISPLAY = {
  time: { ladder: "units" },
  bandwidth: { ladder: "units" },
  size: { ladder: "units" },
  operation_rate: { ladder: "multipliers" },
  request_rate: { ladder: "multipliers" },
  count: { ladder: "bare multipliers" },
  percent: { ladder: "percent" },
} as const satisfies Record<
  UnitDimension,
  { ladder: "units" | "multipliers" | "bare multipliers" | "percent" }
>;

/** Symbols shown instead of a unit's name; each is one of the vocabulary's aliases of that unit. */
const SYMBOLS: Partial<Record<UnitName, keyof typeof UNIT_ALIASES>> = { us: "µs" };

const UNIT_NAMES = Object.keys(UNITS) as UnitName[];

function isUnitName(unit: string): unit is UnitName {
  return Object.hasOwn(UNITS, unit);
}

/** The vocabulary's name of a unit written as itself or as an alias ("µs" → "us"); null if unknown. */
export function unitName(unit: string): UnitName | null {
  const name: string = (UNIT_ALIASES as Record<string, UnitName>)[unit] ?? unit;
  return isUnitName(name) ? name : null;
}

const symbolOf = (name: UnitName): string => SYMBOLS[name] ?? name;

/** 762k ops/s, 14.3M: the prefix sticks to the number, the unit follows after a space. */
const multipliers = (unit: string): Ladder =>
  ["", "k", "M", "G"].map((prefix, i) => step(`${prefix}${unit ? ` ${unit}` : ""}`, 1000 ** i));

function ladderOf(name: UnitName): Ladder {
  const { dimension, base_unit: base, prefixes } = UNITS[name];
  switch (DIMENSION_DISPLAY[dimension].ladder) {
    case "units":
      return UNIT_NAMES.filter(
        (other) =>
          UNITS[other].dimension === dimension && (other === base || UNITS[other].prefixes === prefixes),
      )
        .map((other) => step(` ${symbolOf(other)}`, UNITS[other].factor))
        .sort((a, b) => a.factor - b.factor);
    case "multipliers":
      return multipliers(base);
    case "bare multipliers":
      return multipliers("");
    case "percent":
      return [step("%", 1)];
  }
}

interface UnitInfo {
  factor: number;
  ladder: Ladder;
}

const KNOWN: Record<UnitName, UnitInfo> = Object.fromEntries(
  UNIT_NAMES.map((name) => [name, { factor: UNITS[name].factor, ladder: ladderOf(name) }]),
) as Record<UnitName, UnitInfo>;

function unitInfo(unit: string): UnitInfo {
  const name = unitName(unit);
  return name ? KNOWN[name] : { factor: 1, ladder: [step(unit ? ` ${unit}` : "", 1)] };
}

/** Converts a value in `unit` to its base unit. */
export function toBase(value: number, unit: string): number {
  return value * unitInfo(unit).factor;
}

/** Whether a better value in `unit` is a faster one (times and rates) rather than just a better one. */
export function measuresSpeed(unit: string): boolean {
  const name = unitName(unit);
  return name !== null && (SPEED_DIMENSIONS as readonly UnitDimension[]).includes(UNITS[name].dimension);
}

// One formatter: `toLocaleString` with a locale builds one per call, a hot spot on pages of charts.
const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 12 });

/** A number with three significant digits, or as a whole number from 1,000 up. */
export function formatNumber(value: number, significant = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return NUMBER.format(Math.round(value));
  return NUMBER.format(Number(value.toPrecision(significant)));
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

const DIRECTION_TEXT = {
  lower: "lower is better",
  higher: "higher is better",
  mixed: "direction varies",
} as const satisfies Record<Direction | "mixed", string>;

/** "lower is better", or "direction varies" for a chart whose series differ. */
export function directionText(direction: Direction | "mixed"): string {
  return DIRECTION_TEXT[direction];
}
