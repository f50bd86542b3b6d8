// A real-sized CI suite for the front-end bench and the e2e budget test: one run of
// 300 benchmarks × 10 sizes (3,000 results), as a criterion or go test -bench suite uploads it.

export const BENCHMARKS = 300;
export const SIZES = [16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304];
const FAMILIES = ["parse", "serialize", "hash", "compress", "sort", "search"];

/**
 * The upload body of the big suite's run. Values are deterministic: time per operation grows with
 * the size, and each benchmark has its own constant.
 * @param {string} suite
 * @returns {import("./fixtures").UploadBody}
 */
export function bigSuiteRun(suite) {
  const results = [];
  for (let b = 0; b < BENCHMARKS; b++) {
    const family = FAMILIES[b % FAMILIES.length];
    const benchmark = `${family}/case-${String(b).padStart(3, "0")}`;
    for (const size of SIZES) {
      const value = (20 + (b % 17) * 3) * size ** (0.8 + (b % 5) * 0.05);
      results.push({
        benchmark,
        params: { size },
        language: "rust",
        implementation: "std",
        metric: "time",
        unit: "ns",
        value: Number(value.toPrecision(6)),
        stats: { min: Number((value * 0.97).toPrecision(6)), max: Number((value * 1.05).toPrecision(6)) },
      });
    }
  }
  return {
    suite,
    name: "nightly",
    started_at: "2026-11-01T02:00:00Z",
    hardware: { name: "ci-runner-8c" },
    results,
  };
}
