import { useNavigate } from "react-router";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { HistoryChart } from "../../../components/charts/HistoryChart";
import type { HistoryChartModel, Marker } from "../../../components/charts/historyChartModel";
import { runHref } from "../../../lib/links";
import { directionText } from "../../../lib/units";

function subtitle(chart: HistoryChartModel): string {
  const points = chart.lines.reduce((n, l) => n + l.totalPoints, 0);
  const shown = chart.lines.reduce((n, l) => n + l.points.length, 0);
  const sampled = chart.lines.some((l) => l.downsampled)
    ? `, ${shown.toLocaleString("en-US")} of ${points.toLocaleString("en-US")} points, downsampled: bands span each bucket`
    : "";
  return `(${chart.scale.label}; ${directionText(chart.direction)}${sampled})`;
}

/** One time chart per unit dimension of the chosen series. Clicking a point opens its run. */
export function HistoryCharts({
  charts,
  markers = [],
}: {
  charts: readonly HistoryChartModel[];
  markers?: readonly Marker[];
}) {
  const navigate = useNavigate();
  return (
    <>
      {charts.map((chart) => (
        <ChartFigure
          key={chart.key}
          title={chart.metrics.join(", ")}
          subtitle={subtitle(chart)}
          label={`Time chart of ${chart.metrics.join(", ")} in ${chart.scale.label} for ${chart.lines.length} series: ${chart.lines.map((l) => l.label).join("; ")}`}
        >
          <HistoryChart chart={chart} markers={markers} onSelectRun={(runId) => navigate(runHref(runId))} />
        </ChartFigure>
      ))}
    </>
  );
}
