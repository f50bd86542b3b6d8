/** Series as the service lists them, for the shaping tests: the seed studies' figures. */
import type { BoardSeries } from "./board";

let nextId = 1;

export function boardSeries(
  overrides: Partial<Omit<BoardSeries, "latest">> & { value?: number | null; unit?: string },
): BoardSeries {
  const { value = 1, unit = "req/s", ...identity } = overrides;
  const factor = unit === "us" ? 1e-6 : unit === "ms" ? 1e-3 : 1;
  return {
    id: nextId++,
    hardware: "do-8vcpu-dedicated",
    params: {},
    language: "go",
    implementation: "net/http",
    mode: null,
    variant: null,
    unit,
    base_unit: unit === "us" || unit === "ms" ? "s" : unit,
    direction: unit === "us" || unit === "ms" ? "lower" : "higher",
    latest: value === null ? null : { value, unit, value_base: value * factor, run_id: "r" },
    ...identity,
  };
}

const rest = { connections: 1000, wrk_threads: 4, duration_s: 60 };

/** rest-root-route throughput of the go-vs-dart-rest study (Conduit's 8-core figure is approx). */
export const restThroughput = (): BoardSeries[] => [
  boardSeries({ params: { ...rest, cores: 1, approx: true }, value: 13000 }),
  boardSeries({
    params: { ...rest, cores: 1, approx: true },
    language: "dart",
    implementation: "dart-servers-aggregate",
    variant: "range-best-servers",
    value: 5500,
  }),
  boardSeries({
    params: { ...rest, cores: 8, approx: true },
    language: "dart",
    implementation: "conduit",
    value: 18000,
  }),
  boardSeries({ params: { ...rest, cores: 8 }, value: 61000 }),
  boardSeries({ params: { ...rest, cores: 40 }, hardware: "do-40vcpu-dedicated", value: 71500 }),
];

/** file-write-tiny time per write of the Dart study: 1,000, 10,000 and 50,000 writes. */
export const tinyWrites = (): BoardSeries[] =>
  (
    [
      [1000, 64.635, 147.404],
      [10000, 57.444, 119.898],
      [50000, 53.124, 108.618],
    ] as const
  ).flatMap(([writes, sync, async]) =>
    (["sync", "async"] as const).map((mode) =>
      boardSeries({
        params: { writes, payload_bytes: 13 },
        hardware: "unknown-dart-dev-machine-crespo",
        language: "dart",
        implementation: "dart:io",
        mode,
        variant: "sequential",
        unit: "us",
        value: mode === "sync" ? sync : async,
      }),
    ),
  );
