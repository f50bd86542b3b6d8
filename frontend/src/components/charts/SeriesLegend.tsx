import type { SeriesMarker } from "../../lib/colors";
import { LegendSample } from "./Legend";
import { isolateSeries, toggleSeries } from "./legendState";

export interface LegendEntry {
  key: string;
  label: string;
  color: string;
  /** SVG dash pattern; "" for solid. */
  dash: string;
  marker: SeriesMarker;
}

/**
 * A legend whose entries hide or show their series, with "only" to isolate one (again to show
 * all). The sample shows the colour and, where colours repeat, the dash and the point's shape.
 */
export function SeriesLegend({
  entries,
  hidden,
  onChange,
}: {
  entries: readonly LegendEntry[];
  hidden: ReadonlySet<string>;
  onChange: (hidden: Set<string>) => void;
}) {
  const keys = entries.map((e) => e.key);
  return (
    <ul className="series-legend" aria-label="Series: click to hide or show">
      {entries.map((entry) => {
        const shown = !hidden.has(entry.key);
        return (
          <li key={entry.key} className={shown ? undefined : "off"}>
            <button
              type="button"
              aria-pressed={shown}
              onClick={() => onChange(toggleSeries(hidden, entry.key))}
              title={shown ? "Hide this series" : "Show this series"}
            >
              <LegendSample item={entry} />
              {entry.label}
            </button>
            {entries.length > 1 ? (
              <button
                type="button"
                className="legend-only"
                aria-label={`Show only ${entry.label}`}
                onClick={() => onChange(isolateSeries(hidden, keys, entry.key))}
              >
                only
              </button>
            ) : null}
          </li>
        );
      })}
      {hidden.size ? (
        <li>
          <button type="button" className="legend-only" onClick={() => onChange(new Set())}>
            show all
          </button>
        </li>
      ) : null}
    </ul>
  );
}
