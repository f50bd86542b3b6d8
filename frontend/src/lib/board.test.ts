import { describe, expect, it } from "vitest";
import { boardHref, groupKey, parseBoard, writeBoard } from "./board";

describe("board URL", () => {
  it("merges across annotations by default and round-trips", () => {
    const view = parseBoard(new URLSearchParams("suite=s&benchmark=b&metric=m&group=g"));
    expect(view.ignore).toEqual(["approx"]);
    expect(writeBoard(view).toString()).toBe("suite=s&benchmark=b&metric=m&group=g");
  });

  it("keeps an explicit choice, even of merging nothing", () => {
    expect(parseBoard(new URLSearchParams("ignore=")).ignore).toEqual([]);
    const view = parseBoard(new URLSearchParams("suite=s&benchmark=b&metric=m&ignore=iodepth,approx"));
    expect(view.ignore).toEqual(["approx", "iodepth"]);
    expect(writeBoard(view).get("ignore")).toBe("approx,iodepth");
  });

  it("links a board with its group", () => {
    expect(boardHref({ suite: "s", benchmark: "b", metric: "m", group: "h · cores=8" })).toBe(
      "/leaderboard?suite=s&benchmark=b&metric=m&group=h+%C2%B7+cores%3D8",
    );
  });
});

describe("groupKey", () => {
  const params = { cores: 8, connections: 1000, approx: true };

  it("names the machine and the kept params, sorted", () => {
    expect(groupKey("box", params, ["approx"])).toBe("box · connections=1000, cores=8");
  });

  it("leaves out what is merged, machine included", () => {
    expect(groupKey("box", params, ["approx", "hardware", "cores"])).toBe("connections=1000");
    expect(groupKey("box", {}, ["hardware"])).toBe("all");
  });

  it("does not depend on the order params were given in", () => {
    expect(groupKey("box", { b: 1, a: 2 }, [])).toBe(groupKey("box", { a: 2, b: 1 }, []));
  });
});
