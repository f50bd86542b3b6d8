import { type ReactNode, useEffect, useRef, useState } from "react";

// Charts that came near the viewport, drawn one per task in the order they arrived: a screen of
// small multiples drawn in one go is a single long task that freezes the page.
const waiting: (() => void)[] = [];
let pumping = false;

function drawNext() {
  const draw = waiting.shift();
  if (!draw) {
    pumping = false;
    return;
  }
  draw();
  // React renders the update in a task of its own before this timer fires.
  setTimeout(drawNext, 0);
}

function enqueue(draw: () => void): () => void {
  waiting.push(draw);
  if (!pumping) {
    pumping = true;
    setTimeout(drawNext, 0);
  }
  return () => {
    const index = waiting.indexOf(draw);
    if (index !== -1) waiting.splice(index, 1);
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
        if (near) cancel = enqueue(() => setWidth(Math.round(near.boundingClientRect.width)));
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
    // Observers report in the order they were made, so this first report comes after those of
    // the WhenVisible boxes above (their effects ran first) and queues the draw behind theirs.
    const observer = new IntersectionObserver(() => {
      observer.disconnect();
      cancel = enqueue(() => setDrawn(true));
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancel();
    };
  }, []);
  return <div ref={ref}>{drawn ? children : null}</div>;
}
