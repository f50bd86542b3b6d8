import type { SeriesMarker } from "../../lib/colors";
import { markerPath } from "./markerShape";

/** What a legend entry shows of its series: colour, and for lines their dash and point shape. */
export interface LegendItem {
  key: string;
  label: string;
  color: string;
  /** SVG dash pattern of a line ("" for solid); left out for bars, which show a filled square. */
  dash?: string;
  marker?: SeriesMarker;
}

/** The sample beside a legend's label, drawn the same in every legend of the dashboard. */
export function LegendSample({ item }: { item: LegendItem }) {
  return (
    <svg width="26" height="12" aria-hidden="true" className="legend-sample">
      {item.dash === undefined ? (
        <rect x="7" y="0" width="12" height="12" rx="2" fill={item.color} />
      ) : (
        <line
          x1="1"
          x2="25"
          y1="6"
          y2="6"
          stroke={item.color}
          strokeWidth="3"
          strokeDasharray={item.dash || undefined}
        />
      )}
      {item.marker ? <path d={markerPath(item.marker, 13, 6, 3.5)} fill={item.color} /> : null}
    </svg>
  );
}

/** A legend that names what each colour (and dash) stands for; SeriesLegend is the one that also toggles. */
export function Legend({ items, label }: { items: readonly LegendItem[]; label?: string }) {
  return (
    <ul className="legend" aria-label={label}>
      {items.map((item) => (
        <li key={item.key}>
          <LegendSample item={item} /> {item.label}
        </li>
      ))}
    </ul>
  );
}
