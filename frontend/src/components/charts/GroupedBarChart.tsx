import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  DefaultZIndexes,
  LabelList,
  type LabelProps,
  ResponsiveContainer,
  Tooltip,
  useXAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import { powerTicks } from "../../lib/logScale";
import { formatNumber } from "../../lib/units";
import { wrapText } from "../../lib/wrapText";
import {
  type BarChartModel,
  type BarChartSlice,
  type BarDatum,
  barData,
  type ChartLine,
  chartLines,
  groupedBarChartHeight,
  LINE,
  labelChars,
  linearTicks,
  MARGIN,
} from "./barChartModel";

interface GroupedBarChartProps {
  chart: BarChartModel;
  narrow: boolean;
  /** The value axis's domain when it is a log axis (see logDomain); linear from zero otherwise. */
  log?: [number, number] | null;
  /** The width its box has now in whole pixels, if known: the chart draws at it at once, with no
   * empty render to measure first (it still follows later resizes). */
  width?: number;
  /** Draws only these lines (see chartSlices), on the whole chart's value axis; all of them if left out. */
  slice?: BarChartSlice;
  onSelectSeries?: (seriesId: number) => void;
}

/** The grid's dash pattern ("3 3"), whose period a piece's grid lines go on from. */
const DASH_PERIOD = 6;

function LineTick({
  x = 0,
  y = 0,
  payload,
  lines,
  width,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value: string };
  lines: Map<string, ChartLine>;
  width: number;
}) {
  const line = lines.get(payload?.value ?? "");
  if (!line) return null;
  const text = wrapText(line.label, width);
  const top = Number(y) - ((text.length - 1) * LINE) / 2;
  return (
    <text
      x={Number(x) - 6}
      y={top}
      textAnchor="end"
      dominantBaseline="middle"
      className={line.kind === "group" ? "tick-text tick-strong" : "tick-text"}
    >
      {text.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the wrapped lines of one label, in order
        <tspan key={i} x={Number(x) - 6} dy={i === 0 ? 0 : LINE}>
          {part}
        </tspan>
      ))}
    </text>
  );
}

function TooltipBody({
  chart,
  selectable,
  active,
  payload,
}: {
  chart: BarChartModel;
  selectable: boolean;
  active?: boolean;
  payload?: { payload?: ChartLine }[];
}) {
  const line = payload?.[0]?.payload;
  if (!active || !line || line.kind !== "bar") return null;
  const { cell } = line;
  const range = cell.error
    ? ` (${chart.scale.format(cell.value - cell.error[0])} – ${chart.scale.format(cell.value + cell.error[1])})`
    : "";
  return (
    <div className="chart-tooltip">
      <strong>{line.label}</strong>
      <p>
        {chart.scale.format(cell.value, 4)}
        {range}
      </p>
      {selectable ? <p className="muted">Click for its history.</p> : null}
    </div>
  );
}

/** Half the height of a whisker's end caps, px. */
const CAP = 4;

/**
 * A bar's whisker (min–max, drawn as an ErrorBar would: a line with an end cap at each end) and its
 * value past the whisker, in display units like the axis. `value` is the bar's row key (see the
 * LabelList's accessor): the label's index counts drawn bars only, not the group rows between them.
 */
function ValueLabel({
  viewBox,
  value,
  rows,
  axisStart,
}: LabelProps & { rows: ReadonlyMap<string, BarDatum>; axisStart: number | null }) {
  const scale = useXAxisScale();
  const datum = rows.get(String(value));
  if (datum?.value === undefined || !viewBox || !("width" in viewBox)) return null;
  const { x = 0, y = 0, width = 0, height = 0 } = viewBox;
  const { error } = datum;
  const middle = y + height / 2;
  // On a log axis a minimum at or below its start (a count's 0) ends the whisker at the axis.
  const low = error ? scale?.(Math.max(datum.value - error[0], axisStart ?? -Infinity)) : undefined;
  const high = error ? scale?.(datum.value + error[1]) : undefined;
  const whiskered = low !== undefined && high !== undefined && Number.isFinite(low) && Number.isFinite(high);
  return (
    <>
      {whiskered ? (
        <g className="recharts-errorBar" stroke="var(--text)" strokeWidth={1.5}>
          <line x1={high} y1={middle + CAP} x2={high} y2={middle - CAP} />
          <line x1={low} y1={middle} x2={high} y2={middle} />
          <line x1={low} y1={middle + CAP} x2={low} y2={middle - CAP} />
        </g>
      ) : null}
      <text
        x={Math.max(x + width, whiskered ? high : 0) + 5}
        y={middle}
        dominantBaseline="middle"
        className="bar-value"
      >
        {formatNumber(datum.value)}
      </text>
    </>
  );
}

/**
 * Horizontal bars grouped by workload: a bold heading line per group, then one bar per implementation,
 * coloured by mode, with min–max as error bars.
 */
export function GroupedBarChart({
  chart,
  narrow,
  log = null,
  width,
  slice,
  onSelectSeries,
}: GroupedBarChartProps) {
  const lines = chartLines(chart);
  const byKey = new Map(lines.map((l) => [l.key, l]));

  // The value axis is the whole chart's, whichever lines this draws.
  const all = barData(lines);
  const ticks = log ? powerTicks(log) : linearTicks(all);
  const { start, end, height, offset } = slice ?? {
    start: 0,
    end: lines.length,
    height: groupedBarChartHeight(chart, narrow),
    offset: 0,
  };
  const data = all.slice(start, end);
  const rows = new Map(data.map((d) => [d.key, d]));
  const last = end === lines.length;
  const dashOffset = offset % DASH_PERIOD;
  return (
    <ResponsiveContainer
      width="100%"
      height={height}
      initialDimension={width ? { width, height } : undefined}
    >
      <BarChart
        data={data}
        layout="vertical"
        margin={{ ...MARGIN, top: start === 0 ? MARGIN.top : 0, bottom: last ? MARGIN.bottom : 0 }}
        barCategoryGap={3}
      >
        <CartesianGrid
          horizontal={false}
          strokeDasharray="3 3"
          strokeDashoffset={dashOffset || undefined}
          className="grid"
        />
        <XAxis
          hide={!last}
          type="number"
          scale={log ? "log" : "auto"}
          domain={log ?? (ticks ? [ticks[0] ?? 0, ticks.at(-1) ?? 0] : [0, "auto"])}
          ticks={ticks}
          allowDataOverflow={log !== null}
          tickFormatter={(v: number) => formatNumber(v)}
          label={{ value: chart.scale.label, position: "insideBottom", offset: -10, className: "axis-label" }}
          className="axis"
        />
        <YAxis
          type="category"
          dataKey="key"
          width={narrow ? 130 : 180}
          interval={0}
          tickLine={false}
          tick={(props) => <LineTick {...props} lines={byKey} width={labelChars(narrow)} />}
          className="axis"
        />
        <Tooltip
          cursor={{ className: "tooltip-cursor" }}
          content={<TooltipBody chart={chart} selectable={onSelectSeries !== undefined} />}
        />
        <Bar
          dataKey="value"
          isAnimationActive={false}
          cursor={onSelectSeries ? "pointer" : undefined}
          onClick={(entry: { payload?: ChartLine }) => {
            const line = entry.payload;
            if (line?.kind === "bar" && onSelectSeries) onSelectSeries(line.cell.seriesId);
          }}
        >
          {data.map((l) => (
            <Cell
              key={l.key}
              fill={l.kind === "bar" ? l.bar.color : "transparent"}
              data-mode={l.kind === "bar" ? (l.bar.mode ?? "none") : undefined}
            />
          ))}
          {/* The whiskers and values in the layer an ErrorBar draws in, under the axes. */}
          <LabelList
            valueAccessor={(entry) => (entry.payload as BarDatum).key}
            zIndex={DefaultZIndexes.line}
            content={(props) => <ValueLabel {...props} rows={rows} axisStart={log?.[0] ?? null} />}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
