/** Ticks and labels for a log10 axis of ratios. */

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
