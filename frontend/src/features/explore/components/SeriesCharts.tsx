import { useNavigate } from "react-router";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { GroupedBarChart } from "../../../components/charts/GroupedBarChart";
import { directionText } from "../../../lib/units";
import { useNarrow } from "../../../lib/useMediaQuery";
import type { BarChartModel } from "../lib/barCharts";

function ariaLabel(chart: BarChartModel): string {
  return `Bar chart of ${chart.metric} in ${chart.scale.label}, ${directionText(chart.direction)}: ${chart.rows.length} workloads, ${chart.bars.length} implementations. The table below lists the same values.`;
}

/** One grouped bar chart per metric and unit dimension. Clicking a bar opens its history. */
export function SeriesCharts({ charts }: { charts: readonly BarChartModel[] }) {
  const narrow = useNarrow();
  const navigate = useNavigate();
  return (
    <>
      {charts.map((chart) => (
        <ChartFigure
          key={chart.key}
          title={chart.metric}
          subtitle={`(${chart.scale.label}; ${directionText(chart.direction)}; latest value of each series, whiskers min–max)`}
          label={ariaLabel(chart)}
        >
          <GroupedBarChart
            chart={chart}
            narrow={narrow}
            onSelectSeries={(id) => navigate(`/history?series=${encodeURIComponent(String(id))}`)}
          />
        </ChartFigure>
      ))}
    </>
  );
}
