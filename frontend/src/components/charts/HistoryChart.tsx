import { useState } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { MARKS } from "../../lib/colors";
import { logDomain, spansDecades } from "../../lib/logScale";
import { formatDate, formatDateTime } from "../../lib/time";
import { formatNumber } from "../../lib/units";
import {
  type HistoryChartModel,
  type Marker,
  type MarkerKind,
  mergeByTime,
  type PlacedMarker,
  placeMarkers,
  type TimeRow,
  timeDomain,
} from "./historyChartModel";
import { markerPath } from "./markerShape";
import { SeriesLegend } from "./SeriesLegend";

const MARKER_COLORS = {
  regression: MARKS.worse,
  improvement: MARKS.better,
  annotation: MARKS.annotation,
} as const satisfies Record<MarkerKind, string>;

interface HistoryChartProps {
  chart: HistoryChartModel;
  /** Regressions and annotations, drawn as vertical lines with hover text. */
  markers?: readonly Marker[];
  /** Called with the run of a clicked point. */
  onSelectRun?: (runId: string) => void;
  height?: number;
}

/** What a marker says: kind, status, label and time; its hover text and accessible name. */
export const markerText = (marker: PlacedMarker) =>
  `${marker.kind}${marker.status ? ` (${marker.status})` : ""}: ${marker.label} — ${formatDateTime(marker.t)}`;

/** Rows of markers above the plot, so close ones do not cover each other. */
const MARKER_ROWS = 2;
const MARKER_ROW_HEIGHT = 16;

/**
 * A dot above the plot, at the top of the marker's line, and for a change its status as a small
 * badge; alternate markers sit one row higher.
 */
function MarkerLabel({
  marker,
  row,
  viewBox,
}: {
  marker: PlacedMarker;
  row: number;
  viewBox?: { x?: number; y?: number };
}) {
  const x = viewBox?.x ?? 0;
  const y = (viewBox?.y ?? 0) - 10 - row * MARKER_ROW_HEIGHT;
  const color = MARKER_COLORS[marker.kind];
  const text = markerText(marker);
  const badge = marker.status ?? "";
  const width = badge.length * 6.4 + 10;
  return (
    // Hover text here; pages list the same markers beside the chart for keyboard and screen readers.
    <g className="marker-label" data-kind={marker.kind}>
      <title>{text}</title>
      <line x1={x} x2={x} y1={y} y2={viewBox?.y ?? 0} stroke={color} strokeDasharray="4 2" />
      <circle cx={x} cy={y} r={6} fill={color} stroke="var(--bg)" strokeWidth={1.5} />
      {badge ? (
        <g className="marker-badge" data-status={badge}>
          <rect x={x + 9} y={y - 7} width={width} height={14} rx={7} fill="var(--bg)" stroke={color} />
          <text x={x + 14} y={y + 3.5} fontSize={11} fill="var(--text)">
            {badge}
          </text>
        </g>
      ) : null}
    </g>
  );
}

function TooltipBody({
  chart,
  hidden,
  selectable,
  active,
  payload,
}: {
  chart: HistoryChartModel;
  hidden: ReadonlySet<string>;
  selectable: boolean;
  active?: boolean;
  payload?: { payload?: TimeRow }[];
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="chart-tooltip">
      <strong>{formatDateTime(row.t)}</strong>
      <ul>
        {chart.lines.map((line) => {
          const point = row.points[line.key];
          if (!point || hidden.has(line.key)) return null;
          const band = point.band
            ? ` (${chart.scale.format(point.band[0])} – ${chart.scale.format(point.band[1])})`
            : "";
          const runs = point.count > 1 ? `, ${point.count} runs` : "";
          return (
            <li key={line.key}>
              <span className="swatch" style={{ background: line.color }} /> {line.label}:{" "}
              {chart.scale.format(point.value, 4)}
              {band}
              {runs}
            </li>
          );
        })}
      </ul>
      {selectable ? <p className="muted">Click a point to open its run.</p> : null}
    </div>
  );
}

/** Every value the visible lines draw, bands included: what the value axis must hold. */
function drawnValues(chart: HistoryChartModel, hidden: ReadonlySet<string>): number[] {
  return chart.lines
    .filter((l) => !hidden.has(l.key))
    .flatMap((l) => l.points.flatMap((p) => [p.value, ...(p.band ?? [])]));
}

/**
 * Values over real time, one line per series, min–max bands, and optional markers. The legend
 * hides, shows or isolates series; where the values span decades a log axis can be chosen.
 */
export function HistoryChart({ chart, markers = [], onSelectRun, height = 340 }: HistoryChartProps) {
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [logChosen, setLog] = useState(false);
  const values = drawnValues(chart, hidden);
  const logOffered = spansDecades(values);
  const log = logOffered && logChosen ? logDomain(values) : null;
  const span = timeDomain(chart.lines);
  const placed = placeMarkers(markers, span);
  const markerSpace = placed.length ? 12 + Math.min(placed.length, MARKER_ROWS) * MARKER_ROW_HEIGHT : 16;
  const pointer = onSelectRun ? "pointer" : undefined;
  const day = 86_400_000;
  const domain: [number, number] = span[0] === span[1] ? [span[0] - day, span[1] + day] : span;
  return (
    <>
      <div className="chart-controls">
        <SeriesLegend entries={chart.lines} hidden={hidden} onChange={setHidden} />
        {logOffered ? (
          <label className="log-toggle">
            <input type="checkbox" checked={logChosen} onChange={(e) => setLog(e.target.checked)} /> Log scale
          </label>
        ) : null}
      </div>
      <ResponsiveContainer width="100%" height={height}>
        <ComposedChart
          data={mergeByTime(chart.lines)}
          margin={{ top: markerSpace, right: 16, bottom: 16, left: 8 }}
        >
          <CartesianGrid strokeDasharray="3 3" className="grid" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={domain}
            tickFormatter={(t: number) => formatDate(t)}
            className="axis"
            minTickGap={40}
          />
          <YAxis
            scale={log ? "log" : "auto"}
            domain={log ?? [0, "auto"]}
            allowDataOverflow={log !== null}
            tickFormatter={(v: number) => formatNumber(v)}
            label={{ value: chart.scale.label, angle: -90, position: "insideLeft", className: "axis-label" }}
            className="axis"
            width={64}
          />
          <Tooltip
            content={<TooltipBody chart={chart} hidden={hidden} selectable={onSelectRun !== undefined} />}
          />
          {chart.lines.map((line) => (
            <Area
              key={`band-${line.key}`}
              hide={hidden.has(line.key)}
              dataKey={(row: TimeRow) => row.points[line.key]?.band ?? undefined}
              stroke="none"
              fill={line.color}
              fillOpacity={0.18}
              connectNulls
              isAnimationActive={false}
              legendType="none"
              tooltipType="none"
              name={`${line.label} range`}
            />
          ))}
          {chart.lines.map((line) => (
            <Line
              key={line.key}
              hide={hidden.has(line.key)}
              name={line.label}
              dataKey={(row: TimeRow) => row.points[line.key]?.value}
              stroke={line.color}
              strokeDasharray={line.dash}
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
              dot={
                line.points.length <= 200
                  ? ({ cx, cy, payload }: { cx?: number; cy?: number; payload?: TimeRow }) => {
                      if (cx === undefined || cy === undefined) return null;
                      const outlier = payload?.points[line.key]?.outlier === true;
                      return (
                        <path
                          className="recharts-dot recharts-line-dot"
                          data-marker={line.marker}
                          data-outlier={outlier || undefined}
                          d={markerPath(line.marker, cx, cy, 4)}
                          fill={outlier ? "var(--bg)" : line.color}
                          stroke={outlier ? line.color : undefined}
                          strokeWidth={outlier ? 1.5 : undefined}
                          cursor={pointer}
                        />
                      );
                    }
                  : false
              }
              activeDot={{
                r: 6,
                cursor: pointer,
                onClick: (_event: unknown, dot: unknown) => {
                  const runId = (dot as { payload?: TimeRow }).payload?.points[line.key]?.runId;
                  if (runId) onSelectRun?.(runId);
                },
              }}
            />
          ))}
          {placed.map((marker, index) => (
            <ReferenceLine
              key={`${marker.kind}-${marker.t}-${marker.label}`}
              x={marker.t}
              stroke={MARKER_COLORS[marker.kind]}
              strokeDasharray="4 2"
              label={<MarkerLabel marker={marker} row={index % MARKER_ROWS} />}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </>
  );
}
