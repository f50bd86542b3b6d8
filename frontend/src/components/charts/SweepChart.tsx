import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../../lib/units";

export interface SweepChartLine {
  key: string;
  label: string;
  color: string;
  /** Second cue beside the colour, e.g. "6 3"; undefined for solid. */
  dash?: string;
}

export interface SweepChartRow {
  x: number;
  values: Record<string, number | undefined>;
}

interface SweepChartProps {
  lines: readonly SweepChartLine[];
  /** Sorted by x; values in display units. */
  rows: readonly SweepChartRow[];
  /** The swept param's name, under the x axis. */
  xLabel: string;
  /** The display unit, beside the y axis: "µs", "k req/s". */
  yLabel: string;
  logX: boolean;
  /** The width its box has now in whole pixels, if known: the chart draws at it at once, with no
   * empty render to measure first (it still follows later resizes). */
  width?: number;
  height?: number;
}

/** Values against a numeric param, one line per series group, a dot at every measured point. */
export function SweepChart({ lines, rows, xLabel, yLabel, logX, width, height = 340 }: SweepChartProps) {
  const xs = rows.map((r) => r.x);
  return (
    <ResponsiveContainer
      width="100%"
      height={height}
      initialDimension={width ? { width, height } : undefined}
    >
      <LineChart data={[...rows]} margin={{ top: 12, right: 20, bottom: 24, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" className="grid" />
        <XAxis
          dataKey="x"
          type="number"
          scale={logX ? "log" : "linear"}
          domain={["dataMin", "dataMax"]}
          ticks={xs.length <= 12 ? xs : undefined}
          tickFormatter={(x: number) => formatNumber(x)}
          label={{ value: xLabel, position: "insideBottom", offset: -12, className: "axis-label" }}
          className="axis"
          padding={{ left: 16, right: 16 }}
        />
        <YAxis
          tickFormatter={(v: number) => formatNumber(v)}
          label={{ value: yLabel, angle: -90, position: "insideLeft", className: "axis-label" }}
          className="axis"
          width={64}
        />
        <Tooltip
          labelFormatter={(x) => `${xLabel} = ${formatNumber(Number(x))}`}
          formatter={(value) => `${formatNumber(Number(value), 4)} ${yLabel}`}
        />
        {lines.map((line) => (
          <Line
            key={line.key}
            name={line.label}
            dataKey={(row: SweepChartRow) => row.values[line.key]}
            stroke={line.color}
            strokeDasharray={line.dash}
            strokeWidth={2}
            dot={{ r: 4, fill: line.color }}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
