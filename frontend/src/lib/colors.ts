/**
 * Okabe–Ito colour-blind-safe palette. Each language has one colour everywhere;
 * sync and async have their own colour families in bar charts.
 */
import type { MODES } from "../api/vocabulary";

export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
  grey: "#999999",
} as const;

/**
 * The colours of verdicts (better, worse, neither) and of notes on a chart: CSS variables of
 * styles.css, so a chart's mark and the text beside it are one colour by construction.
 */
export const MARKS = {
  better: "var(--mark-better)",
  worse: "var(--mark-worse)",
  neutral: "var(--mark-neutral)",
  annotation: "var(--mark-annotation)",
} as const;

const PALETTE = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.vermillion,
  OKABE_ITO.yellow,
  OKABE_ITO.grey,
] as const;

const KNOWN_LANGUAGES: Record<string, string> = {
  dart: OKABE_ITO.blue,
  go: OKABE_ITO.skyBlue,
  csharp: OKABE_ITO.reddishPurple,
  c: OKABE_ITO.vermillion,
  rust: OKABE_ITO.orange,
  python: OKABE_ITO.bluishGreen,
  java: OKABE_ITO.yellow,
  javascript: OKABE_ITO.grey,
};

function hash(text: string): number {
  let h = 0;
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

/** The stable colour of a language: fixed for common ones, hashed for the rest. */
export function languageColor(language: string): string {
  return KNOWN_LANGUAGES[language] ?? (PALETTE[hash(language) % PALETTE.length] as string);
}

const MODE_FAMILIES = {
  sync: [OKABE_ITO.blue, OKABE_ITO.skyBlue, OKABE_ITO.bluishGreen],
  async: [OKABE_ITO.vermillion, OKABE_ITO.orange, OKABE_ITO.reddishPurple],
} as const satisfies Record<(typeof MODES)[number], readonly string[]>;

const isMode = (mode: string): mode is keyof typeof MODE_FAMILIES => Object.hasOwn(MODE_FAMILIES, mode);

/** The colour of the `index`-th bar of a mode: blues for sync, reds and oranges for async, else grey. */
export function modeColor(mode: string | null | undefined, index = 0): string {
  if (!mode || !isMode(mode)) return OKABE_ITO.grey;
  const family = MODE_FAMILIES[mode];
  return family[index % family.length] as string;
}

/**
 * Colours for the series of one chart, most distinct first: Okabe–Ito, then Paul Tol's muted
 * scheme (both colour-blind-safe); yellow and sand (too faint on white) and grey (bars
 * without a mode) are left out.
 */
export const SERIES_PALETTE = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.vermillion,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  "#332288", // indigo
  "#117733", // green
  "#882255", // wine
  "#999933", // olive
  "#44AA99", // teal
  "#AA4499", // purple
  "#CC6677", // rose
] as const;

/** Second cue once colours repeat: solid, then dashed patterns. */
export const SERIES_DASHES = ["", "6 3", "2 3", "8 3 2 3"] as const;

/**
 * The shape of a series' points, changing with the dash: a series of one point has no line to
 * dash, so its shape is what tells it from another of the same colour.
 */
export const SERIES_MARKERS = ["circle", "square", "triangle", "diamond"] as const;
export type SeriesMarker = (typeof SERIES_MARKERS)[number];

export interface SeriesStyle {
  color: string;
  /** SVG dash pattern; "" for solid. */
  dash: string;
  marker: SeriesMarker;
}

/**
 * A style per series key, distinct within a chart and stable across views: each key's colour
 * slot comes from a hash of the key, taken by the next free slot when another key holds it, so
 * adding or removing a series leaves the others' colours alone unless they collided. Keys are
 * placed in sorted order, so the order they come in does not matter. Past the palette's length,
 * colours repeat with the next dash pattern and point shape.
 */
export function seriesStyles(keys: readonly string[]): Map<string, SeriesStyle> {
  const size = SERIES_PALETTE.length;
  const styles = new Map<string, SeriesStyle>();
  let taken = new Set<number>();
  let round = 0;
  for (const key of [...new Set(keys)].sort()) {
    if (taken.size === size) {
      taken = new Set();
      round += 1;
    }
    let slot = hash(key) % size;
    while (taken.has(slot)) slot = (slot + 1) % size;
    taken.add(slot);
    styles.set(key, {
      color: SERIES_PALETTE[slot] as string,
      dash: SERIES_DASHES[round % SERIES_DASHES.length] as string,
      marker: SERIES_MARKERS[round % SERIES_MARKERS.length] as SeriesMarker,
    });
  }
  return styles;
}
