import { wrapText } from "../../lib/wrapText";

interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value: string };
  /** Characters per line. */
  width: number;
  /** Extra line in bold under the label, by label. */
  emphasis?: (label: string) => string | undefined;
}

/** A category-axis tick that wraps long labels to the left of the axis. */
export function WrappedTick({ x = 0, y = 0, payload, width, emphasis }: TickProps) {
  const label = payload?.value ?? "";
  const lines = wrapText(label, width);
  const strong = emphasis?.(label);
  const count = lines.length + (strong ? 1 : 0);
  const top = Number(y) - ((count - 1) * 13) / 2;
  return (
    <text x={Number(x) - 6} y={top} textAnchor="end" className="tick-text" dominantBaseline="middle">
      {lines.map((line, i) => (
        // Lines of one label are fixed text in a fixed order: their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <tspan key={i} x={Number(x) - 6} dy={i === 0 ? 0 : 13}>
          {line}
        </tspan>
      ))}
      {strong ? (
        <tspan x={Number(x) - 6} dy={lines.length ? 13 : 0} className="tick-strong">
          {strong}
        </tspan>
      ) : null}
    </text>
  );
}
