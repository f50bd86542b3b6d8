import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ErrorBar,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { MARKS } from "../../lib/colors";
import { formatRatioTick } from "../../lib/logScale";
import { type RatioBar, ratioBarLayout } from "./ratioBarModel";
import { WrappedTick } from "./WrappedTick";

/** How a ratio reads for async (better, worse, about the same): its bar's colour. */
function barFill(better: boolean | null): string {
  return better === null ? MARKS.neutral : better ? MARKS.better : MARKS.worse;
}

interface RatioBarChartProps {
  rows: readonly RatioBar[];
  /** log10 ticks; shared by the charts of one section so their bars compare. */
  ticks: readonly number[];
  narrow: boolean;
}

/** async/sync ratios as bars from 1.0 on a log scale, each labelled with its wording. */
export function RatioBarChart({ rows, ticks, narrow }: RatioBarChartProps) {
  const { labelChars, height, wordingByLabel } = ratioBarLayout(rows, narrow);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={[...rows]} layout="vertical" margin={{ top: 4, right: 16, bottom: 16, left: 4 }}>
        <CartesianGrid horizontal={false} strokeDasharray="3 3" className="grid" />
        <XAxis
          type="number"
          domain={[ticks[0] ?? -1, ticks.at(-1) ?? 1]}
          ticks={[...ticks]}
          tickFormatter={formatRatioTick}
          allowDataOverflow
          label={{
            value: "async / sync (log scale)",
            position: "insideBottom",
            offset: -10,
            className: "axis-label",
          }}
          className="axis"
        />
        <YAxis
          type="category"
          dataKey="label"
          width={narrow ? 140 : 330}
          interval={0}
          tick={(props) => (
            <WrappedTick {...props} width={labelChars} emphasis={(label) => wordingByLabel.get(label)} />
          )}
          className="axis"
        />
        <ReferenceLine x={0} stroke="var(--text)" />
        <Tooltip
          cursor={{ className: "tooltip-cursor" }}
          formatter={(_value, _name, item) => {
            const row = item.payload as RatioBar;
            return [`${row.ratio.toPrecision(4)} (${row.wording.text})`, "async / sync"];
          }}
          contentStyle={{
            background: "var(--surface)",
            border: "1px solid var(--border)",
            color: "var(--text)",
          }}
        />
        <Bar dataKey="logRatio" isAnimationActive={false} name="async / sync">
          {rows.map((row) => (
            <Cell key={row.key} fill={barFill(row.wording.better)} />
          ))}
          <ErrorBar
            dataKey={(row: RatioBar) => row.error ?? undefined}
            direction="x"
            width={5}
            stroke="var(--text)"
            isAnimationActive={false}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
