import { type ReactNode, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

// Charts that came near the viewport, drawn one per task in the order they arrived: a screen of
// small multiples drawn in one go is a single long task that freezes the page. Content drawn later
// (DrawLater) waits until no chart does: the intersection observers of a chart and of the table
// below it report in the same frame, but not in a fixed order.
const charts: (() => void)[] = [];
const later: (() => void)[] = [];
let pumping = false;

function drawNext() {
  const draw = charts.shift() ?? later.shift();
  if (!draw) {
    pumping = false;
    return;
  }
  // Rendered and committed now, in this task: left to React's scheduler, the update could still
  // be pending when the next timer fires and be rendered together with the next draw.
  flushSync(draw);
  setTimeout(drawNext, 0);
}

function enqueue(queue: (() => void)[], draw: () => void): () => void {
  queue.push(draw);
  if (!pumping) {
    pumping = true;
    setTimeout(drawNext, 0);
  }
  return () => {
    const index = queue.indexOf(draw);
    if (index !== -1) queue.splice(index, 1);
  };
}

/**
 * Renders its children while its box is near the viewport, each in a task of its own, and drops
 * them again once it is far away: a page of hundreds of charts keeps only a few screens of them
 * in the document. The box keeps `height` (the children's height) throughout, so nothing moves.
 * Children get the box's width in whole pixels (as Recharts rounds what it measures) as the
 * observer saw it, so a chart can draw at its size at once instead of rendering empty to measure.
 */
export function WhenVisible({
  height,
  children,
}: {
  height: number;
  children: (width: number) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The box's width while it is drawn, null while it is not.
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let cancel = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.findLast((e) => e.isIntersecting);
        cancel();
        if (near) cancel = enqueue(charts, () => setWidth(Math.round(near.boundingClientRect.width)));
        else setWidth(null);
      },
      { rootMargin: "1200px 0px" },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancel();
    };
  }, []);
  return (
    <div ref={ref} style={{ minHeight: height }}>
      {width === null ? null : children(width)}
    </div>
  );
}

/**
 * Renders its children in a draw task of their own, after the charts that were near the viewport
 * when it mounted, and keeps them: heavy content below them (a long table) then never delays the
 * first screen of charts.
 */
export function DrawLater({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let cancel = () => {};
    // Its first report comes in the same frame as those of the WhenVisible boxes above, and the
    // draw waits behind theirs.
    const observer = new IntersectionObserver(() => {
      observer.disconnect();
      cancel = enqueue(later, () => setDrawn(true));
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancel();
    };
  }, []);
  return <div ref={ref}>{drawn ? children : null}</div>;
}
