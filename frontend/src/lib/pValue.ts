/**
 * "p = 0.0042", "p < 0.001"; `missing` where there is none (untested, or stored before p-values
 * were), in the words of the page that shows it.
 */
export function formatPValue(p: number | null | undefined, missing: string): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return missing;
  return p < 0.001 ? "p < 0.001" : `p = ${p.toPrecision(2)}`;
}
