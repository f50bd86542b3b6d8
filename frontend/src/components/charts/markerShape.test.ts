import { describe, expect, it } from "vitest";
import { SERIES_MARKERS } from "../../lib/colors";
import { markerPath } from "./markerShape";

/** The corners of a path made of M/L/H/V commands, absolute coordinates. */
function corners(path: string): [number, number][] {
  const points: [number, number][] = [];
  let [x, y] = [0, 0];
  for (const [, command, args] of path.matchAll(/([MLHV])([^MLHVZ]*)/g)) {
    const numbers = (args ?? "").split(/[ ,]+/).filter(Boolean).map(Number);
    if (command === "H") x = numbers[0] ?? x;
    else if (command === "V") y = numbers[0] ?? y;
    else [x = x, y = y] = numbers;
    points.push([x, y]);
  }
  return points;
}

/** Shoelace area of a polygon. */
const area = (points: [number, number][]) =>
  Math.abs(
    points.reduce((sum, [x, y], i) => {
      const [nx, ny] = points[(i + 1) % points.length] as [number, number];
      return sum + x * ny - nx * y;
    }, 0) / 2,
  );

describe("markerPath", () => {
  it("draws a different outline for every shape", () => {
    const paths = SERIES_MARKERS.map((m) => markerPath(m, 10, 10, 4));
    expect(new Set(paths).size).toBe(SERIES_MARKERS.length);
  });

  it("gives the polygons the area of the circle, centred on the point", () => {
    for (const marker of ["square", "diamond", "triangle"] as const) {
      const points = corners(markerPath(marker, 50, 20, 4));
      expect(area(points), marker).toBeCloseTo(Math.PI * 16, 0);
      const centroid = points.reduce(
        ([sx, sy], [x, y]) => [sx + x / points.length, sy + y / points.length],
        [0, 0],
      );
      expect(centroid[0], marker).toBeCloseTo(50, 1);
      expect(centroid[1], marker).toBeCloseTo(20, 1);
    }
  });

  it("draws the circle as two arcs of its radius starting left of the centre", () => {
    expect(markerPath("circle", 10, 5, 4)).toBe("M6,5a4,4 0 1,0 8,0a4,4 0 1,0 -8,0Z");
  });
});
