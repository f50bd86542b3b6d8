import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { AlertGroup } from "../../../api/types";
import { ErrorMessage, Loading } from "../../../components/Status";
import { formatDate } from "../../../lib/time";
import { alertGroupQuery } from "../api";
import { groupTitle } from "../lib/groups";
import { ChangeSummary } from "./ChangeSummary";
import { GroupTriageForm } from "./GroupTriageForm";
import { RegressionList } from "./RegressionList";
import { SeriesIdentity } from "./SeriesIdentity";

/** A group's changes and its bulk triage, fetched when it is opened. */
export function AlertGroupMembers({ groupId }: { groupId: number }) {
  const detail = useQuery(alertGroupQuery(groupId));
  if (detail.error) return <ErrorMessage error={detail.error} />;
  if (!detail.data) return <Loading what="the group's changes" />;
  return (
    <>
      <GroupTriageForm group={detail.data} />
      <RegressionList items={detail.data.members} />
    </>
  );
}

function GroupItem({ group, open }: { group: AlertGroup; open: boolean }) {
  const [expanded, setExpanded] = useState(open);
  const statuses = Object.entries(group.by_status)
    .map(([status, count]) => `${count} ${status}`)
    .join(" · ");
  return (
    <li className={`alert-group regression-${group.worst.direction}`} data-group={group.id}>
      <details open={expanded} onToggle={(e) => setExpanded(e.currentTarget.open)}>
        <summary>
          <strong>{groupTitle(group)}</strong>
          <span className="muted">
            {" "}
            · {group.suite} · {group.machines.join(", ")} · {formatDate(group.started_at)}
          </span>
          <br />
          <span className="group-statuses">{statuses}</span>
          <span className="group-worst">
            {" "}
            · largest: <ChangeSummary change={group.worst} />{" "}
            <SeriesIdentity series={group.worst.series} linked={false} />
          </span>
        </summary>
        <p>
          <Link to={`/regressions/groups/${group.id}`}>Link to this group</Link>
        </p>
        {expanded ? <AlertGroupMembers groupId={group.id} /> : null}
      </details>
    </li>
  );
}

/** Alert groups, newest first: each expands to its changes and a triage for all of them. */
export function AlertGroupList({ items, open }: { items: readonly AlertGroup[]; open?: number }) {
  return (
    <ol className="regression-list alert-groups" aria-label="Alert groups, newest first">
      {items.map((g) => (
        <GroupItem key={g.id} group={g} open={g.id === open} />
      ))}
    </ol>
  );
}
