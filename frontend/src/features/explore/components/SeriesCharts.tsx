import { useState } from "react";
import { useNavigate } from "react-router";
import { type BarChartModel, chartLines, chartSlices } from "../../../components/charts/barChartModel";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { GroupedBarChart } from "../../../components/charts/GroupedBarChart";
import { Legend } from "../../../components/charts/Legend";
import { WhenVisible } from "../../../components/WhenVisible";
import { historyHref } from "../../../lib/filters";
import { logDomain, spansDecades } from "../../../lib/logScale";
import { directionText } from "../../../lib/units";
import { useNarrow } from "../../../lib/useMediaQuery";

function ariaLabel(chart: BarChartModel): string {
  return `Bar chart of ${chart.title}, ${chart.metric} in ${chart.scale.label}, ${directionText(chart.direction)}: ${chart.rows.length} workloads, ${chart.bars.length} implementations. The table below lists the same values.`;
}

/** Every value a chart draws, whisker ends included. */
function drawnValues(chart: BarChartModel): number[] {
  return chartLines(chart).flatMap((line) =>
    line.kind === "bar"
      ? [
          line.cell.value,
          line.cell.value - (line.cell.error?.[0] ?? 0),
          line.cell.value + (line.cell.error?.[1] ?? 0),
        ]
      : [],
  );
}

/** One chart of the grid, with a log axis on offer where its values span decades. */
function BarFigure({ chart, narrow }: { chart: BarChartModel; narrow: boolean }) {
  const navigate = useNavigate();
  const [logChosen, setLog] = useState(false);
  const values = drawnValues(chart);
  const logOffered = spansDecades(values);
  return (
    <ChartFigure
      title={chart.title}
      subtitle={`${chart.metric} (${chart.scale.label}; ${directionText(chart.direction)})`}
      label={ariaLabel(chart)}
    >
      <div className="chart-controls">
        {/* The bar colours: blues for sync, reds and oranges for async, grey without a mode. */}
        <Legend items={chart.bars} />
        {logOffered ? (
          <label className="log-toggle">
            <input type="checkbox" checked={logChosen} onChange={(e) => setLog(e.target.checked)} /> Log scale
          </label>
        ) : null}
      </div>
      {/* A tall chart in pieces, each drawn in a task of its own as it comes near the viewport. */}
      {chartSlices(chart, narrow).map((slice) => (
        <WhenVisible key={slice.start} height={slice.height}>
          {(width) => (
            <GroupedBarChart
              chart={chart}
              narrow={narrow}
              log={logOffered && logChosen ? logDomain(values) : null}
              width={width}
              slice={slice}
              onSelectSeries={(id) => navigate(historyHref([id]))}
            />
          )}
        </WhenVisible>
      ))}
    </ChartFigure>
  );
}

/**
 * Small multiples: one compact chart per benchmark and metric, each with its own axis, drawn as it
 * comes near the viewport. Clicking a bar opens its history.
 */
export function SeriesCharts({ charts }: { charts: readonly BarChartModel[] }) {
  const narrow = useNarrow();
  return (
    <div className="small-multiples">
      {charts.map((chart) => (
        <BarFigure key={chart.key} chart={chart} narrow={narrow} />
      ))}
    </div>
  );
}
