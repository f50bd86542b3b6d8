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
 */
export function WhenVisible({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let cancel = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.some((e) => e.isIntersecting);
        cancel();
        if (near) cancel = enqueue(() => setVisible(true));
        else setVisible(false);
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
      {visible ? children : null}
    </div>
  );
}
