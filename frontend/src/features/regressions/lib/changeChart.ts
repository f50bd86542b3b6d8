/**
 * Shapes a detected change's context into what its page draws: the history around the change
 * (one line, the change marked) and the spread of run levels on each side of it.
 */
import type { ContextPoint, LevelSpread, Regression, RegressionContext } from "../../../api/types";
import type { HistoryChartModel } from "../../../components/charts/historyChartModel";
import type { SideStrip } from "../../../components/charts/stripChartModel";
import { seriesStyles } from "../../../lib/colors";
import { seriesLabel } from "../../../lib/identity";
import { type Scale, scaleFor } from "../../../lib/units";

type ChangeLike = Pick<Regression, "series">;

/** One display scale for the levels and replicates of both sides. */
export function changeScale(context: RegressionContext, change: ChangeLike): Scale {
  const points = [...context.before, ...context.after];
  return scaleFor(
    points.flatMap((p) => [p.value_base, ...(p.samples_base ?? [])]),
    change.series.base_unit,
  );
}

/** Runs whose result a maintainer marked an outlier: left out of detection, drawn hollow. */
export type Outliers = ReadonlySet<string>;

const NONE: Outliers = new Set();

/** The series' runs around the change as a one-line history chart. */
export function changeHistory(
  context: RegressionContext,
  change: ChangeLike,
  scale: Scale,
  outliers: Outliers = NONE,
): HistoryChartModel {
  const key = String(change.series.id);
  const style = seriesStyles([key]).get(key);
  const points = [...context.before, ...context.after].map((p) => ({
    t: Date.parse(p.started_at),
    value: scale.toDisplay(p.value_base),
    band: p.samples_base?.length
      ? ([scale.toDisplay(Math.min(...p.samples_base)), scale.toDisplay(Math.max(...p.samples_base))] as [
          number,
          number,
        ])
      : null,
    runId: p.run_id,
    count: 1,
    outlier: outliers.has(p.run_id),
  }));
  return {
    key,
    metrics: [change.series.metric],
    direction: change.series.direction,
    scale,
    lines: [
      {
        key,
        label: seriesLabel(change.series),
        color: style?.color ?? "currentColor",
        dash: "",
        marker: "circle",
        points,
        downsampled: false,
        totalPoints: points.length,
      },
    ],
  };
}

function strip(
  side: SideStrip["label"],
  points: readonly ContextPoint[],
  spread: LevelSpread | null,
  scale: Scale,
  outliers: Outliers,
): SideStrip {
  const display = (v: number) => scale.toDisplay(v);
  return {
    label: side,
    levels: points.map((p) => ({
      value: display(p.value_base),
      runId: p.run_id,
      outlier: outliers.has(p.run_id),
    })),
    samples: points.flatMap((p) =>
      (p.samples_base ?? []).map((v) => ({ value: display(v), outlier: outliers.has(p.run_id) })),
    ),
    spread: spread
      ? {
          min: display(spread.min),
          q1: display(spread.q1),
          median: display(spread.median),
          q3: display(spread.q3),
          max: display(spread.max),
        }
      : null,
    count: spread?.count ?? 0,
  };
}

/** Before and after the change: each side's run levels, replicates and box, in display units. */
export function changeStrips(
  context: RegressionContext,
  scale: Scale,
  outliers: Outliers = NONE,
): [SideStrip, SideStrip] {
  return [
    strip("before", context.before, context.before_spread, scale, outliers),
    strip("after", context.after, context.after_spread, scale, outliers),
  ];
}
