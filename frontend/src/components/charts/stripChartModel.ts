/** What StripChart draws: a few groups of values side by side, each with its box. */

export interface SideStrip {
  label: string;
  /** One dot per value (a run's level), display units, with the run it opens; hollow if an outlier. */
  levels: { value: number; runId: string; outlier?: boolean }[];
  /** Smaller, fainter dots (replicates), display units; hollow if their run is an outlier. */
  samples: { value: number; outlier: boolean }[];
  /** Five-number summary of `levels`, display units; null without values. */
  spread: { min: number; q1: number; median: number; q3: number; max: number } | null;
  count: number;
}

/** Where the `index`-th dot sits across its strip, -0.5…0.5: spread evenly, the same every render. */
export function jitter(index: number): number {
  return ((index * 0.618034) % 1) - 0.5;
}

/** Half the width of a strip that its run levels spread over, in strips. */
export const SPREAD = 0.36;

/** One dot of the chart: where it sits, its value, the run it opens (run levels) and what it is. */
export interface StripDot {
  x: number;
  value: number;
  runId?: string;
  label: string;
  /** Of a run a maintainer marked an outlier (its level or replicates): drawn hollow, as on the
   * History chart, and left out of the box. */
  outlier?: boolean;
}

/**
 * The dots the chart draws: each strip's run levels spread across it at x = strip index ± SPREAD,
 * and its replicates spread a little wider, placed between the levels so they do not hide them.
 */
export function stripDots(strips: readonly SideStrip[]): { levels: StripDot[]; samples: StripDot[] } {
  return {
    levels: strips.flatMap((s, i) =>
      s.levels.map((l, j) => ({
        x: i + jitter(j) * SPREAD,
        value: l.value,
        runId: l.runId,
        label: `${s.label}: run level${l.outlier ? " (outlier)" : ""}`,
        outlier: l.outlier ?? false,
      })),
    ),
    samples: strips.flatMap((s, i) =>
      s.samples.map((sample, j) => ({
        x: i + jitter(j + 0.5) * SPREAD * 1.4,
        value: sample.value,
        label: `${s.label}: replicate${sample.outlier ? " (outlier run)" : ""}`,
        outlier: sample.outlier,
      })),
    ),
  };
}
