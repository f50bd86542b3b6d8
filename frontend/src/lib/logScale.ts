/** Log axes: ticks and labels for ratios, and when and how a value axis goes log. */

function cover(candidates: readonly number[], low: number, high: number): number[] {
  const first = candidates.filter((c) => c <= low + 1e-9).at(-1) ?? candidates[0];
  const last = candidates.find((c) => c >= high - 1e-9) ?? candidates.at(-1);
  return candidates.filter((c) => c >= (first as number) && c <= (last as number));
}

/**
 * Nice ratio ticks (…, 0.5, 1, 2, 5, 10, …) as log10 values from one at or below the lowest of
 * `ends` (log10 values) to one at or above the highest; 1.0 always included; only powers of ten past nine ticks.
 */
export function ratioTicks(ends: readonly number[]): number[] {
  const low = Math.min(0, ...ends);
  const high = Math.max(0, ...ends);
  const oneTwoFive: number[] = [];
  for (let power = -9; power <= 9; power++) {
    for (const mantissa of [1, 2, 5]) oneTwoFive.push(Math.log10(mantissa) + power);
  }
  const ticks = cover(oneTwoFive, low, high);
  return ticks.length > 9 ? cover(oneTwoFive.filter(Number.isInteger), low, high) : ticks;
}

/** "2×", "0.5×" for a log10 tick. */
export function formatRatioTick(logValue: number): string {
  return `${Number((10 ** logValue).toPrecision(2))}×`;
}

/** Whether positive values span at least `decades` powers of ten, so a log axis reads better. */
export function spansDecades(values: readonly number[], decades = 2): boolean {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length < 2) return false;
  return Math.log10(Math.max(...positive) / Math.min(...positive)) >= decades;
}

/**
 * A log axis's domain: from the power of ten at or below the smallest positive value to the one
 * at or above the largest; null without positive values (a log axis cannot show them).
 */
export function logDomain(values: readonly number[]): [number, number] | null {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return null;
  // "1e-4" parses to the nearest double of 10⁻⁴; 10 ** -4 lands one below it.
  const low = Number(`1e${Math.floor(Math.log10(Math.min(...positive)))}`);
  const high = Number(`1e${Math.ceil(Math.log10(Math.max(...positive)))}`);
  return [low, high === low ? low * 10 : high];
}

/** The powers of ten of a log domain from logDomain, as its axis ticks. */
export function powerTicks([low, high]: [number, number]): number[] {
  const ticks: number[] = [];
  for (let power = Math.round(Math.log10(low)); power <= Math.round(Math.log10(high)); power++)
    ticks.push(Number(`1e${power}`));
  return ticks;
}
