import { describe, expect, it } from "vitest";
import { wrapText } from "./wrapText";

describe("wrapText", () => {
  it("breaks at spaces and commas within the width", () => {
    expect(wrapText("file-write-tiny (writes=10000, payload_bytes=13)", 20)).toEqual([
      "file-write-tiny",
      "(writes=10000,",
      "payload_bytes=13)",
    ]);
  });
  it("cuts words much longer than the width", () => {
    expect(wrapText("abcdefghijklmnopqrstuvwxyz", 10)).toEqual(["abcdefghij", "klmnopqrst", "uvwxyz"]);
  });
  it("breaks a word longer than the width after _ or =, not past the width", () => {
    expect(wrapText("writes=30000, files_per_iteration=3", 16)).toEqual([
      "writes=30000,",
      "files_per_",
      "iteration=3",
    ]);
    expect(wrapText("rows=1, format=map", 16)).toEqual(["rows=1,", "format=map"]);
  });
  it("keeps short text whole", () => {
    expect(wrapText("go · net/http", 40)).toEqual(["go · net/http"]);
  });
});
