/**
 * The leaderboard's URL: one benchmark and metric of a suite, the params the reader merges
 * across (`ignore`), the group shown, a baseline and a swept param. Studies link into it, so the
 * format lives here, apart from the leaderboard feature.
 */
import type { Params } from "./identity";

/** Params that annotate a figure rather than name a workload: they never split a board by default. */
export const ANNOTATION_PARAMS: readonly string[] = ["approx"];

/** The machine, mergeable like a param. */
export const HARDWARE = "hardware";

export interface BoardView {
  suite: string;
  benchmark: string;
  metric: string;
  /** Param names (and `hardware`) merged across; groups differ only in the others. */
  ignore: string[];
  /** The group shown (see groupKey); "" for the first. */
  group: string;
  /** Series id the others are compared with; "" for the best. */
  baseline: string;
  /** The numeric param of the sweep chart; "" for the first. */
  sweep: string;
}

const sortedUnique = (values: readonly string[]) => [...new Set(values)].sort();

export function parseBoard(params: URLSearchParams): BoardView {
  const ignore = params.has("ignore")
    ? (params.get("ignore") ?? "").split(",").filter(Boolean)
    : [...ANNOTATION_PARAMS];
  return {
    suite: params.get("suite") ?? "",
    benchmark: params.get("benchmark") ?? "",
    metric: params.get("metric") ?? "",
    ignore: sortedUnique(ignore),
    group: params.get("group") ?? "",
    baseline: params.get("baseline") ?? "",
    sweep: params.get("sweep") ?? "",
  };
}

/** The view as search params, leaving out what is at its default. */
export function writeBoard(view: BoardView): URLSearchParams {
  const params = new URLSearchParams({ suite: view.suite, benchmark: view.benchmark, metric: view.metric });
  const ignore = sortedUnique(view.ignore);
  if (ignore.join(",") !== sortedUnique(ANNOTATION_PARAMS).join(",")) params.set("ignore", ignore.join(","));
  for (const key of ["group", "baseline", "sweep"] as const) if (view[key]) params.set(key, view[key]);
  return params;
}

export function boardHref(
  view: Pick<BoardView, "suite" | "benchmark" | "metric"> & Partial<BoardView>,
): string {
  return `/leaderboard?${writeBoard({ ignore: [...ANNOTATION_PARAMS], group: "", baseline: "", sweep: "", ...view })}`;
}

/**
 * What names a group: the machine and the params not merged across, sorted by name:
 * "do-8vcpu-dedicated · connections=1000, cores=8". "all" when everything is merged.
 */
export function groupKey(hardware: string, params: Params, ignore: readonly string[]): string {
  const kept = Object.keys(params)
    .filter((key) => !ignore.includes(key))
    .sort()
    .map((key) => `${key}=${String(params[key])}`)
    .join(", ");
  const parts = [ignore.includes(HARDWARE) ? "" : hardware, kept].filter(Boolean);
  return parts.join(" · ") || "all";
}
