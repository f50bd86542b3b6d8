import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import type { BoardView } from "../../../lib/board";
import { boardFacetsQuery } from "../api";

/** Suite, benchmark and metric of the board, from the facets of what is chosen so far. */
export function BoardPicker({
  view,
  onChange,
}: {
  view: BoardView;
  onChange: (next: Partial<BoardView>) => void;
}) {
  const facets = useQuery(boardFacetsQuery(view.suite, view.benchmark));
  const id = useId();
  const dimensions = facets.data?.dimensions ?? {};
  const fields = [
    { key: "suite", label: "Suite", reset: { benchmark: "", metric: "" } },
    { key: "benchmark", label: "Benchmark", reset: { metric: "" } },
    { key: "metric", label: "Metric", reset: {} },
  ] as const;
  return (
    <div className="board-picker">
      {fields.map((field) => {
        const options = (dimensions[field.key] ?? []).map((f) => f.value);
        const value = view[field.key];
        return (
          <div key={field.key} className="board-select">
            <label htmlFor={`${id}-${field.key}`}>{field.label}</label>
            <select
              id={`${id}-${field.key}`}
              value={value}
              onChange={(e) =>
                onChange({ [field.key]: e.target.value, ...field.reset, group: "", baseline: "", sweep: "" })
              }
            >
              <option value="">Choose…</option>
              {[...new Set([value, ...options].filter(Boolean))].map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          </div>
        );
      })}
    </div>
  );
}
