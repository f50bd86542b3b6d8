import type { ReactNode } from "react";

/** A chart with its title and a text label for assistive technology. */
export function ChartFigure({
  title,
  subtitle,
  label,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    <figure className="chart" aria-label={label}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {subtitle ? <span className="chart-subtitle"> {subtitle}</span> : null}
      </figcaption>
      {children}
    </figure>
  );
}
