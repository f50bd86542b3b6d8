import { useNavigate } from "react-router";
import type { BarChartModel } from "../../../components/charts/barChartModel";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { GroupedBarChart, groupedBarChartHeight } from "../../../components/charts/GroupedBarChart";
import { WhenVisible } from "../../../components/WhenVisible";
import { historyHref } from "../../../lib/filters";
import { directionText } from "../../../lib/units";
import { useNarrow } from "../../../lib/useMediaQuery";

/** The bar colours of a chart: blues for sync, reds and oranges for async, grey without a mode. */
function ModeLegend({ chart }: { chart: BarChartModel }) {
  return (
    <ul className="legend">
      {chart.bars.map((bar) => (
        <li key={bar.key}>
          <span className="swatch" style={{ background: bar.color }} aria-hidden="true" /> {bar.label}
        </li>
      ))}
    </ul>
  );
}

function ariaLabel(chart: BarChartModel): string {
  return `Bar chart of ${chart.title}, ${chart.metric} in ${chart.scale.label}, ${directionText(chart.direction)}: ${chart.rows.length} workloads, ${chart.bars.length} implementations. The table below lists the same values.`;
}

/**
 * Small multiples: one compact chart per benchmark and metric, each with its own axis, drawn as it
 * comes near the viewport. Clicking a bar opens its history.
 */
export function SeriesCharts({ charts }: { charts: readonly BarChartModel[] }) {
  const narrow = useNarrow();
  const navigate = useNavigate();
  return (
    <div className="small-multiples">
      {charts.map((chart) => (
        <ChartFigure
          key={chart.key}
          title={chart.title}
          subtitle={`${chart.metric} (${chart.scale.label}; ${directionText(chart.direction)})`}
          label={ariaLabel(chart)}
        >
          <ModeLegend chart={chart} />
          <WhenVisible height={groupedBarChartHeight(chart, narrow)}>
            <GroupedBarChart
              chart={chart}
              narrow={narrow}
              onSelectSeries={(id) => navigate(historyHref([id]))}
            />
          </WhenVisible>
        </ChartFigure>
      ))}
    </div>
  );
}
