import { describe, expect, it } from "vitest";
import { draftsOf, newDraft, settingsBody } from "./targets";

describe("notification targets", () => {
  it("keeps saved targets by id and never sends their masked URL back", () => {
    const drafts = draftsOf({
      targets: [
        {
          id: 7,
          url: "json://bot:****@hooks.example/x",
          events: ["improvement", "regression"],
          min_change: 0.05,
        },
      ],
    });
    expect(drafts[0]).toMatchObject({ id: 7, events: ["regression", "improvement"], minPercent: "5" });
    expect(settingsBody(drafts)).toEqual({
      targets: [{ id: 7, events: ["regression", "improvement"], min_change: 0.05 }],
    });
  });

  it("sends a new target's URL in full, its percentage as a fraction", () => {
    const added = { ...newDraft(), url: "  mailto://u:p@mail.example  ", minPercent: "12.5" };
    expect(settingsBody([added])).toEqual({
      targets: [{ url: "mailto://u:p@mail.example", events: ["regression"], min_change: 0.125 }],
    });
    expect(settingsBody([{ ...added, minPercent: "" }]).targets[0]?.min_change).toBe(0);
  });

  it("gives each new row its own key", () => {
    expect(newDraft().key).not.toBe(newDraft().key);
  });
});
