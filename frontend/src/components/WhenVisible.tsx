import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * Renders its children once the placeholder comes near the viewport, so a long page of charts
 * draws the first ones at once and the rest as they scroll into view.
 */
export function WhenVisible({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || visible) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setVisible(true);
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);
  return visible ? children : <div ref={ref} style={{ height }} aria-hidden="true" />;
}
