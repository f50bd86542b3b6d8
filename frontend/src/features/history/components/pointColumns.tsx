import { Link } from "react-router";
import { runHref } from "../../../lib/links";
import type { Column } from "../../../lib/table";
import { formatDateTime } from "../../../lib/time";
import type { PointRow } from "../lib/historyChart";

/**
 * The points the charts draw, each linking to its run. A series' label can be long (params,
 * hardware): the series, the time and the value are pinned so the value never scrolls away.
 */
export const pointColumns: Column<PointRow>[] = [
  { id: "series", header: "Series", text: (r) => r.line.label, pin: true, width: 320 },
  {
    id: "time",
    header: "Started",
    text: (r) => formatDateTime(r.point.t),
    sortValue: (r) => r.point.t,
    raw: (r) => ({ Started: new Date(r.point.t).toISOString() }),
    pin: true,
    width: 170,
  },
  {
    id: "value",
    header: "Value",
    align: "end",
    text: (r) => r.format(r.point.value, 4),
    sortValue: (r) => r.point.value,
    raw: (r) => ({ Value: r.point.value, Unit: r.unit }),
    dataValue: (r) => r.point.value,
    pin: true,
    width: 110,
  },
  {
    id: "band",
    header: "Min – max",
    align: "end",
    text: (r) => (r.point.band ? `${r.format(r.point.band[0])} – ${r.format(r.point.band[1])}` : ""),
  },
  {
    id: "count",
    header: "Runs",
    align: "end",
    text: (r) => String(r.point.count),
    sortValue: (r) => r.point.count,
  },
  {
    id: "run",
    header: "Run",
    text: (r) => r.point.runId,
    render: (r) => <Link to={runHref(r.point.runId)}>{r.point.runId.slice(0, 8)}</Link>,
  },
];
