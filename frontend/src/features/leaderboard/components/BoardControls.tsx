import { useId } from "react";
import type { BoardView } from "../../../lib/board";
import type { BoardEntry, BoardGroup, ParamChoice } from "../lib/board";

interface BoardControlsProps {
  view: BoardView;
  choices: readonly ParamChoice[];
  groups: readonly BoardGroup[];
  group: BoardGroup | null;
  entries: readonly BoardEntry[];
  onChange: (next: Partial<BoardView>) => void;
}

/** Which params to merge across, which group to show, and what to compare with. */
export function BoardControls({ view, choices, groups, group, entries, onChange }: BoardControlsProps) {
  const id = useId();
  return (
    <div className="board-controls">
      {choices.length ? (
        <fieldset className="merge">
          <legend>Merge across</legend>
          {choices.map((choice) => (
            <label key={choice.key} title={choice.values.join(", ")}>
              <input
                type="checkbox"
                checked={view.ignore.includes(choice.key)}
                onChange={(e) =>
                  onChange({
                    ignore: e.target.checked
                      ? [...view.ignore, choice.key]
                      : view.ignore.filter((key) => key !== choice.key),
                    group: "",
                    baseline: "",
                  })
                }
              />{" "}
              {choice.key} <span className="muted">({choice.values.length} values)</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {groups.length > 1 ? (
        <div className="board-select">
          <label htmlFor={`${id}-group`}>Group</label>
          <select
            id={`${id}-group`}
            value={group?.key ?? ""}
            onChange={(e) => onChange({ group: e.target.value, baseline: "" })}
          >
            {groups.map((g) => (
              <option key={g.key} value={g.key}>
                {g.key} ({g.series.length})
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {entries.length > 1 ? (
        <div className="board-select">
          <label htmlFor={`${id}-baseline`}>Compare with</label>
          <select
            id={`${id}-baseline`}
            value={view.baseline}
            onChange={(e) => onChange({ baseline: e.target.value })}
          >
            <option value="">the best</option>
            {entries.map((entry) => (
              <option key={entry.series.id} value={String(entry.series.id)}>
                {entry.label}
                {entry.detail ? ` (${entry.detail})` : ""}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}
