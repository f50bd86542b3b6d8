import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router";
import type { Regression } from "../../../api/types";
import { WriteError } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { alertGroupsQuery, moveChange } from "../api";
import { groupTitle } from "../lib/groups";

/** The select's value for "a group of its own". */
const APART = "apart";

/**
 * Which alert group the change is in, and a maintainer's move of it to another group of its suite
 * or apart (a different cause). The token field is the triage form's, above it.
 */
export function GroupMoveForm({ regression }: { regression: Regression }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const groups = useQuery(alertGroupsQuery({ suite: regression.series.suite }));
  const others = (groups.data?.items ?? []).filter((g) => g.id !== regression.group_id);
  const [target, setTarget] = useState(APART);
  const id = useId();
  const move = useMutation({
    mutationFn: () => moveChange(regression.id, target === APART ? null : Number(target), token),
    onSuccess: (saved) => {
      queryClient.setQueryData(["regressions", "one", regression.id], saved);
      void queryClient.invalidateQueries({ queryKey: ["regressions"] });
      setTarget(APART);
    },
  });
  return (
    <section className="group-move" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Alert group</h2>
      <p>
        {regression.group_id === null ? (
          "In no alert group yet."
        ) : (
          <>
            In{" "}
            <Link to={`/regressions/groups/${regression.group_id}`}>alert group {regression.group_id}</Link>.
          </>
        )}
      </p>
      <form
        className="triage-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!move.isPending) move.mutate();
        }}
      >
        <label htmlFor={id}>Move to</label>
        <select id={id} name="group" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value={APART}>A group of its own (a different cause)</option>
          {others.map((g) => (
            <option key={g.id} value={String(g.id)}>
              Group {g.id}: {groupTitle(g)}
            </option>
          ))}
        </select>
        <div>
          <button type="submit" disabled={!token} aria-busy={move.isPending}>
            {move.isPending ? "Moving…" : "Move the change"}
          </button>{" "}
          {!token ? <span className="muted">Paste a maintainer token above to move it.</span> : null}
          {move.isSuccess && !move.isPending ? (
            <span role="status" className="saved">
              Moved.
            </span>
          ) : null}
        </div>
      </form>
      <WriteError error={move.error} action="move changes" />
    </section>
  );
}
