/** What StripChart draws: a few groups of values side by side, each with its box. */

export interface SideStrip {
  label: string;
  /** One dot per value (a run's level), display units, with the run it opens. */
  levels: { value: number; runId: string }[];
  /** Smaller, fainter dots (replicates), display units. */
  samples: number[];
  /** Five-number summary of `levels`, display units; null without values. */
  spread: { min: number; q1: number; median: number; q3: number; max: number } | null;
  count: number;
}

/** Where the `index`-th dot sits across its strip, -0.5…0.5: spread evenly, the same every render. */
export function jitter(index: number): number {
  return ((index * 0.618034) % 1) - 0.5;
}
