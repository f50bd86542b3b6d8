import { Fragment } from "react";
import {
  CartesianGrid,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { OKABE_ITO } from "../../lib/colors";
import { formatNumber } from "../../lib/units";
import { markerPath } from "./markerShape";
import { type SideStrip, type StripDot, stripDots } from "./stripChartModel";

interface StripChartProps {
  strips: readonly SideStrip[];
  /** The display unit, for the axis. */
  unit: string;
  format: (displayValue: number, significant?: number) => string;
  /** Called with the run of a clicked level. */
  onSelectRun?: (runId: string) => void;
  height?: number;
}

const BOX = 0.28;

function TooltipBody({
  format,
  active,
  payload,
}: {
  format: StripChartProps["format"];
  active?: boolean;
  payload?: { payload?: StripDot }[];
}) {
  const dot = payload?.[0]?.payload;
  if (!active || !dot) return null;
  return (
    <div className="chart-tooltip">
      <strong>{dot.label}</strong>
      <p>{format(dot.value, 4)}</p>
    </div>
  );
}

/**
 * Groups of values side by side (before and after a change): a box from the lower to the upper
 * quartile with the median, whiskers to min and max, every value as a dot and replicates as
 * smaller, fainter dots.
 */
export function StripChart({ strips, unit, format, onSelectRun, height = 300 }: StripChartProps) {
  const { levels, samples } = stripDots(strips);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ScatterChart margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" className="grid" vertical={false} />
        <XAxis
          type="number"
          dataKey="x"
          domain={[-0.6, strips.length - 0.4]}
          ticks={strips.map((_, i) => i)}
          tickFormatter={(i: number) => {
            const s = strips[i];
            return s ? `${s.label} (${s.count} runs)` : "";
          }}
          className="axis"
        />
        <YAxis
          type="number"
          dataKey="value"
          // Zoomed to the values, not from zero: the spread on each side is what this chart shows.
          domain={["auto", "auto"]}
          tickFormatter={(v: number) => formatNumber(v)}
          label={{ value: unit, angle: -90, position: "insideLeft", className: "axis-label" }}
          className="axis"
          width={64}
        />
        <Tooltip content={<TooltipBody format={format} />} cursor={false} />
        {strips.map((s, i) =>
          s.spread ? (
            <Fragment key={s.label}>
              <ReferenceLine
                segment={[
                  { x: i, y: s.spread.min },
                  { x: i, y: s.spread.q1 },
                ]}
                stroke="var(--text)"
              />
              <ReferenceLine
                segment={[
                  { x: i, y: s.spread.q3 },
                  { x: i, y: s.spread.max },
                ]}
                stroke="var(--text)"
              />
              <ReferenceArea
                x1={i - BOX}
                x2={i + BOX}
                y1={s.spread.q1}
                y2={s.spread.q3}
                fill={i === 0 ? OKABE_ITO.blue : OKABE_ITO.vermillion}
                fillOpacity={0.12}
                stroke="var(--text)"
                className="strip-box"
              />
              <ReferenceLine
                segment={[
                  { x: i - BOX, y: s.spread.median },
                  { x: i + BOX, y: s.spread.median },
                ]}
                stroke="var(--text)"
                strokeWidth={2.5}
                className="strip-median"
              />
            </Fragment>
          ) : null,
        )}
        {samples.length ? (
          <Scatter
            data={samples}
            isAnimationActive={false}
            className="strip-samples"
            shape={(props: { cx?: number; cy?: number; payload?: StripDot }) =>
              props.payload?.outlier ? (
                <circle
                  cx={props.cx}
                  cy={props.cy}
                  r={2}
                  data-outlier
                  fill="var(--bg)"
                  stroke="var(--muted)"
                  strokeWidth={1}
                />
              ) : (
                <circle cx={props.cx} cy={props.cy} r={2} fill="var(--muted)" fillOpacity={0.5} />
              )
            }
          />
        ) : null}
        <Scatter
          data={levels}
          isAnimationActive={false}
          className="strip-levels"
          shape={(props: { cx?: number; cy?: number; payload?: StripDot }) => {
            if (props.cx === undefined || props.cy === undefined) return <g />;
            const outlier = props.payload?.outlier === true;
            return (
              <path
                d={markerPath("circle", props.cx, props.cy, 4.5)}
                data-outlier={outlier || undefined}
                fill={outlier ? "var(--bg)" : OKABE_ITO.blue}
                stroke={outlier ? OKABE_ITO.blue : "var(--bg)"}
                strokeWidth={outlier ? 1.5 : 1}
              />
            );
          }}
          cursor={onSelectRun ? "pointer" : undefined}
          onClick={(dot: { payload?: StripDot }) => {
            if (dot.payload?.runId) onSelectRun?.(dot.payload.runId);
          }}
        />
      </ScatterChart>
    </ResponsiveContainer>
  );
}
