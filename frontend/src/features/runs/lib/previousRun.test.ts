import { describe, expect, it } from "vitest";
import { previousRun } from "./previousRun";

const run = (id: string, started_at: string, hardware_name = "m", suite = "s") => ({
  id,
  suite,
  hardware_name,
  started_at,
});

describe("previousRun", () => {
  it("picks the latest earlier run of the same suite and hardware", () => {
    const current = run("c", "2025-03-21T00:00:00Z");
    const runs = [
      run("old", "2025-01-01T00:00:00Z"),
      run("prev", "2025-03-20T00:00:00Z"),
      run("later", "2025-04-01T00:00:00Z"),
      run("other-hw", "2025-03-20T12:00:00Z", "n"),
      run("other-suite", "2025-03-20T12:00:00Z", "m", "t"),
      current,
    ];
    expect(previousRun(runs, current)?.id).toBe("prev");
  });
  it("gives null for the first run", () => {
    const current = run("c", "2025-03-21T00:00:00Z");
    expect(previousRun([current], current)).toBeNull();
  });
});
