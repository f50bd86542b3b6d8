import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { forgetRefusedToken, readMaintainerToken, writeMaintainerToken } from "./maintainerToken";

/** A browser whose session storage refuses every call, as with storage disabled or full. */
const refusing = {
  getItem: () => {
    throw new DOMException("denied", "SecurityError");
  },
  setItem: () => {
    throw new DOMException("full", "QuotaExceededError");
  },
  removeItem: () => {
    throw new DOMException("denied", "SecurityError");
  },
};

const session = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
};

afterEach(() => {
  writeMaintainerToken("");
  vi.unstubAllGlobals();
});

describe("the maintainer's token", () => {
  it("lives in session storage only", () => {
    const storage = session();
    vi.stubGlobal("window", { sessionStorage: storage });
    writeMaintainerToken("bb_secret");
    expect([...storage.items.values()]).toEqual(["bb_secret"]);
    expect(readMaintainerToken()).toBe("bb_secret");
  });

  it("is kept in the page's memory, without an error, where the browser refuses storage", () => {
    vi.stubGlobal("window", { sessionStorage: refusing });
    expect(() => writeMaintainerToken("bb_secret")).not.toThrow();
    expect(readMaintainerToken()).toBe("bb_secret");
    writeMaintainerToken("");
    expect(readMaintainerToken()).toBe("");
  });

  it("is forgotten when the service refuses it (401), kept when it is only too weak (403)", () => {
    vi.stubGlobal("window", { sessionStorage: session() });
    writeMaintainerToken("bb_upload");
    forgetRefusedToken(new ApiError(403, "forbidden", "needs the maintain scope"));
    expect(readMaintainerToken()).toBe("bb_upload");
    forgetRefusedToken(new ApiError(500, "internal", "boom"));
    forgetRefusedToken(new Error("network"));
    expect(readMaintainerToken()).toBe("bb_upload");
    forgetRefusedToken(new ApiError(401, "unauthorized", "unknown token"));
    expect(readMaintainerToken()).toBe("");
  });
});
