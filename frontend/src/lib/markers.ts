/** Regression and annotation markers on a time axis. */

/** A regression or annotation to mark on a history chart. */
export interface Marker {
  time: string | number;
  label: string;
  kind: string;
  status?: string;
}

export interface PlacedMarker extends Marker {
  t: number;
}

/** Markers with a parseable time inside the chart's domain, in time order. */
export function placeMarkers(markers: readonly Marker[], domain: [number, number]): PlacedMarker[] {
  return markers
    .map((m) => ({ ...m, t: typeof m.time === "number" ? m.time : Date.parse(m.time) }))
    .filter((m) => Number.isFinite(m.t) && m.t >= domain[0] && m.t <= domain[1])
    .sort((a, b) => a.t - b.t);
}
