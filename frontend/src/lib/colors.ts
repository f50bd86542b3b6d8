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
