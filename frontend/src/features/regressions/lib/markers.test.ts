import { describe, expect, it } from "vitest";
import { buildChartNotes } from "./markers";

const series = { id: 7, base_unit: "s", direction: "lower" as const };
const regression = {
  id: 1,
  series,
  started_at: "2025-03-10T00:00:00Z",
  direction: "regression" as const,
  relative_change: 0.3,
  status: "acknowledged" as const,
  note: " known: new allocator ",
};
const annotation = { id: 4, at: "2025-03-01T12:00:00Z", text: "kernel 6.8 on the runner", created_by: "ops" };

describe("buildChartNotes", () => {
  it("marks a change by its direction, with size, status and note", () => {
    const [note] = buildChartNotes([regression], []);
    expect(note).toEqual({
      key: "regression-1",
      time: "2025-03-10T00:00:00Z",
      label: "+30.0% slower — “known: new allocator”",
      kind: "regression",
      status: "acknowledged",
      regressionId: 1,
    });
  });

  it("marks an improvement as one and leaves out an empty note", () => {
    const [note] = buildChartNotes(
      [{ ...regression, direction: "improvement", relative_change: -0.25, status: "untriaged", note: "" }],
      [],
    );
    expect(note?.kind).toBe("improvement");
    expect(note?.label).toBe("−25.0% faster");
  });

  it("marks annotations with their text and author, without a status", () => {
    const [note] = buildChartNotes([], [annotation]);
    expect(note).toMatchObject({ kind: "annotation", label: "kernel 6.8 on the runner", by: "ops" });
    expect(note?.status).toBeUndefined();
  });

  it("names an annotation's editor beside its author, unless they are the same", () => {
    const [edited] = buildChartNotes([], [{ ...annotation, updated_by: "lead" }]);
    expect(edited?.by).toBe("ops, edited by lead");
    const [own] = buildChartNotes([], [{ ...annotation, updated_by: "ops" }]);
    expect(own?.by).toBe("ops");
  });

  it("keeps each regression and annotation once, in time order", () => {
    const notes = buildChartNotes([regression, regression], [annotation, annotation]);
    expect(notes.map((n) => n.key)).toEqual(["annotation-4", "regression-1"]);
  });

  it("names the series when asked, for charts of several series", () => {
    const [note] = buildChartNotes([regression], [], { seriesLabel: (id) => `#${id}` });
    expect(note?.label).toMatch(/^#7: \+30\.0% slower/);
  });
});
