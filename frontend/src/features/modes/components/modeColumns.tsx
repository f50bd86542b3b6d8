import { Link } from "react-router";
import { verdictClass } from "../../../lib/factor";
import { historyHref } from "../../../lib/filters";
import { formatParams } from "../../../lib/identity";
import type { Column } from "../../../lib/table";
import { formatValue } from "../../../lib/units";
import { formatInterval } from "../lib/ratio";
import type { RatioRow } from "../lib/ratioRows";
import { sidesLabel } from "../lib/ratioRows";

function intervalText(row: RatioRow): string {
  return row.interval ? formatInterval(row.interval) : "";
}

const side = (key: "sync" | "async", header: string): Column<RatioRow> => ({
  id: key,
  header,
  align: "end",
  text: (r) => formatValue(r.pair[key].value, r.pair[key].unit),
  sortValue: (r) => r.pair[key].value_base,
  raw: (r) => ({ [header]: r.pair[key].value, [`${header} unit`]: r.pair[key].unit }),
  dataValue: (r) => r.pair[key].value,
  render: (r) => (
    <Link to={historyHref([r.pair[key].series_id])}>{formatValue(r.pair[key].value, r.pair[key].unit)}</Link>
  ),
});

/** The workload, the ratio and its reading first, pinned while the other columns scroll sideways. */
export const modeColumns: Column<RatioRow>[] = [
  { id: "benchmark", header: "Benchmark", text: (r) => r.pair.benchmark, pin: true, width: 190 },
  {
    id: "ratio",
    header: "Async / sync",
    align: "end",
    text: (r) => `${r.ratio.toPrecision(4)}×`,
    sortValue: (r) => r.ratio,
    raw: (r) => ({ "Async / sync": r.ratio }),
    dataValue: (r) => r.ratio,
    pin: true,
    width: 110,
  },
  {
    id: "wording",
    header: "Reading",
    text: (r) => r.wording.text,
    sortValue: (r) => (r.wording.better ? -1 : 1) * r.wording.factor,
    render: (r) => <span className={verdictClass(r.wording)}>{r.wording.text}</span>,
    pin: true,
    width: 170,
  },
  { id: "params", header: "Params", text: (r) => formatParams(r.pair.params) },
  { id: "language", header: "Language", text: (r) => r.pair.language },
  { id: "metric", header: "Metric", text: (r) => r.pair.metric },
  { id: "compared", header: "Compared", text: (r) => sidesLabel(r.pair) },
  side("sync", "Sync"),
  side("async", "Async"),
  {
    id: "interval",
    header: "Interval",
    text: intervalText,
    raw: (r) => ({
      "Interval low": r.interval?.low ?? null,
      "Interval high": r.interval?.high ?? null,
      "Interval method": r.interval?.method ?? null,
    }),
  },
  { id: "hardware", header: "Hardware", text: (r) => r.pair.hardware },
  { id: "suite", header: "Suite", text: (r) => r.pair.suite },
];
