/** Detected changes and maintainers' annotations as markers on a history chart. */
import type { Annotation, Regression, RegressionStatus } from "../../../api/types";
import type { Marker } from "../../../components/charts/historyChartModel";
import { formatSize } from "./wording";

export interface ChartNote extends Marker {
  /** Unique across regressions and annotations. */
  key: string;
  time: string;
  status?: RegressionStatus;
  /** Who said it: the annotation's author, and its last editor; none for a detected change. */
  by?: string;
  /** The detected change, for a link to its triage. */
  regressionId?: number;
}

type RegressionLike = Pick<
  Regression,
  "id" | "started_at" | "direction" | "relative_change" | "status" | "note"
> & { series: Pick<Regression["series"], "id" | "base_unit" | "direction"> };

type AnnotationLike = Pick<Annotation, "id" | "at" | "text" | "created_by" | "updated_by">;

export interface MarkerOptions {
  /** Name the series in each change's label, for charts with more than one series. */
  seriesLabel?: (seriesId: number) => string;
}

/**
 * One marker per detected change (its size, status and note) and per annotation (its text and
 * author), each once even when fetched for several series, in time order.
 */
export function buildChartNotes(
  regressions: readonly RegressionLike[],
  annotations: readonly AnnotationLike[],
  { seriesLabel }: MarkerOptions = {},
): ChartNote[] {
  const notes = new Map<string, ChartNote>();
  for (const r of regressions) {
    const prefix = seriesLabel ? `${seriesLabel(r.series.id)}: ` : "";
    const note = r.note?.trim() ? ` — “${r.note.trim()}”` : "";
    notes.set(`regression-${r.id}`, {
      key: `regression-${r.id}`,
      time: r.started_at,
      label: `${prefix}${formatSize(r)}${note}`,
      kind: r.direction,
      status: r.status,
      regressionId: r.id,
    });
  }
  for (const a of annotations) {
    notes.set(`annotation-${a.id}`, {
      key: `annotation-${a.id}`,
      time: a.at,
      label: a.text,
      kind: "annotation",
      by:
        a.updated_by && a.updated_by !== a.created_by
          ? `${a.created_by}, edited by ${a.updated_by}`
          : a.created_by,
    });
  }
  return [...notes.values()].sort(
    (x, y) => Date.parse(x.time) - Date.parse(y.time) || (x.key < y.key ? -1 : 1),
  );
}
