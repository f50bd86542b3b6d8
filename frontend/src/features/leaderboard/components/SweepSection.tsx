import { useId } from "react";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { ChartTable } from "../../../components/charts/ChartTable";
import { Legend } from "../../../components/charts/Legend";
import { SweepChart } from "../../../components/charts/SweepChart";
import { WhenVisible } from "../../../components/WhenVisible";
import { formatNumber, scaleFor } from "../../../lib/units";
import type { BoardSeries } from "../lib/board";
import { lineStyles, logAxisFits, sweepLines, sweepRows } from "../lib/sweep";

interface SweepSectionProps {
  title: string;
  series: readonly BoardSeries[];
  params: readonly string[];
  param: string;
  ignore: readonly string[];
  onParam: (param: string) => void;
}

const HEIGHT = 360;

/** The metric against a numeric param, one line per implementation/mode. */
export function SweepSection({ title, series, params, param, ignore, onParam }: SweepSectionProps) {
  const id = useId();
  const lines = sweepLines(series, param, ignore);
  const unit = series[0]?.base_unit ?? "";
  const scale = scaleFor(
    lines.flatMap((l) => l.points.map((p) => p.y)),
    unit,
  );
  const logX = logAxisFits(lines);
  const styled = lineStyles(lines);
  const rows = sweepRows(lines, scale.toDisplay);
  return (
    <section aria-labelledby={`${id}-h`} className="sweep">
      <h2 id={`${id}-h`}>Parameter sweep</h2>
      {params.length > 1 ? (
        <p>
          <label htmlFor={`${id}-param`}>Sweep over</label>{" "}
          <select id={`${id}-param`} value={param} onChange={(e) => onParam(e.target.value)}>
            {params.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </p>
      ) : null}
      <ChartFigure
        title={`${title} against ${param}`}
        subtitle={logX ? `${param} on a log scale` : undefined}
        label={`Line chart of ${title} against ${param}, ${lines.length} lines`}
      >
        <Legend items={styled.map((line) => ({ ...line, dash: line.dash ?? "", marker: "circle" }))} />
        <WhenVisible height={HEIGHT}>
          {(width) => (
            <SweepChart
              lines={styled}
              rows={rows}
              xLabel={param}
              yLabel={scale.label}
              logX={logX}
              width={width}
              height={HEIGHT}
            />
          )}
        </WhenVisible>
        <ChartTable
          summary="The sweep as a table"
          caption={`${title} (${scale.label}) against ${param}, one column per line`}
          columns={[param, ...styled.map((line) => line.label)]}
          rows={rows.map((row) => ({
            key: String(row.x),
            cells: [
              formatNumber(row.x),
              ...styled.map((line) => {
                const value = row.values[line.key];
                return value === undefined ? "—" : formatNumber(value, 4);
              }),
            ],
          }))}
        />
      </ChartFigure>
    </section>
  );
}
