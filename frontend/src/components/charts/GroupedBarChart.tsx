import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { BarChartModel, BarRow } from "../../features/explore/lib/barCharts";
import { formatNumber } from "../../lib/units";
import { WrappedTick } from "./WrappedTick";

interface GroupedBarChartProps {
  chart: BarChartModel;
  narrow: boolean;
  onSelectSeries?: (seriesId: number | string) => void;
}

/** Horizontal grouped bars: a group per workload, a bar per implementation, min–max as error bars. */
export function GroupedBarChart({ chart, narrow, onSelectSeries }: GroupedBarChartProps) {
  const barsPerGroup = Math.max(1, chart.bars.length);
  const height =
    90 + chart.rows.length * Math.max(44, barsPerGroup * 16 + 12) + (narrow ? chart.bars.length * 18 : 0);
  const labelChars = narrow ? 16 : 34;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart
        data={chart.rows}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 16, left: 4 }}
        barGap={1}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" className="grid" />
        <XAxis
          type="number"
          tickFormatter={(v: number) => formatNumber(v)}
          label={{ value: chart.scale.label, position: "insideBottom", offset: -10, className: "axis-label" }}
          className="axis"
        />
        <YAxis
          type="category"
          dataKey="label"
          width={narrow ? 110 : 250}
          interval={0}
          tick={(props) => <WrappedTick {...props} width={labelChars} />}
          className="axis"
        />
        <Tooltip
          cursor={{ className: "tooltip-cursor" }}
          formatter={(value) => (typeof value === "number" ? chart.scale.format(value, 4) : String(value))}
          contentStyle={{
            background: "var(--surface)",
            border: "1px solid var(--border)",
            color: "var(--text)",
          }}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {chart.bars.map((bar) => (
          <Bar
            key={bar.key}
            name={bar.label}
            dataKey={(row: BarRow) => row.cells[bar.key]?.value}
            fill={bar.color}
            isAnimationActive={false}
            cursor={onSelectSeries ? "pointer" : undefined}
            onClick={(entry: { payload?: BarRow }) => {
              const cell = entry.payload?.cells[bar.key];
              if (cell && onSelectSeries) onSelectSeries(cell.seriesId);
            }}
          >
            <ErrorBar
              dataKey={(row: BarRow) => row.cells[bar.key]?.error ?? undefined}
              direction="x"
              width={4}
              stroke="var(--text)"
            />
          </Bar>
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
