/** SVG paths of a series' point shapes (circle, square, triangle, diamond). */
import type { SeriesMarker } from "../../lib/colors";

const f = (n: number) => Number(n.toFixed(2));

/**
 * The outline of `marker` centred on (cx, cy), sized to the area of a circle of radius `r` so
 * that no shape looks heavier than another: a square of side r·√π, a diamond of half-diagonal
 * r·√(π/2), an upward triangle of circumradius r·√(4π/(3√3)) centred on its centroid.
 */
export function markerPath(marker: SeriesMarker, cx: number, cy: number, r: number): string {
  switch (marker) {
    case "circle":
      return `M${f(cx - r)},${f(cy)}a${f(r)},${f(r)} 0 1,0 ${f(2 * r)},0a${f(r)},${f(r)} 0 1,0 ${f(-2 * r)},0Z`;
    case "square": {
      const h = (r * Math.sqrt(Math.PI)) / 2;
      return `M${f(cx - h)},${f(cy - h)}H${f(cx + h)}V${f(cy + h)}H${f(cx - h)}Z`;
    }
    case "diamond": {
      const d = r * Math.sqrt(Math.PI / 2);
      return `M${f(cx)},${f(cy - d)}L${f(cx + d)},${f(cy)}L${f(cx)},${f(cy + d)}L${f(cx - d)},${f(cy)}Z`;
    }
    case "triangle": {
      const R = r * Math.sqrt((4 * Math.PI) / (3 * Math.sqrt(3)));
      const half = (R * Math.sqrt(3)) / 2;
      return `M${f(cx)},${f(cy - R)}L${f(cx + half)},${f(cy + R / 2)}L${f(cx - half)},${f(cy + R / 2)}Z`;
    }
  }
}
