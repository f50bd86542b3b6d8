import { useQuery } from "@tanstack/react-query";
import { triageHealthQuery } from "../api";
import { formatDuration } from "../lib/groups";

/** Whether triage keeps up, in one line: median time to triage, share within 3 days, oldest group waiting. */
export function TriageHealthLine({ suite }: { suite: string | undefined }) {
  const health = useQuery(triageHealthQuery(suite));
  if (!health.data) return null;
  const { median_time_to_triage_s, triaged_within_share, untriaged_groups, oldest_untriaged_group_at } =
    health.data;
  // The service answers without the clock (its reads are cached by data version): the age is counted here.
  const oldestAge = oldest_untriaged_group_at
    ? (Date.now() - Date.parse(oldest_untriaged_group_at)) / 1000
    : null;
  return (
    <p className="triage-health muted" data-testid="triage-health">
      {median_time_to_triage_s === null || triaged_within_share === null
        ? "Nothing triaged yet"
        : `Time to triage: median ${formatDuration(median_time_to_triage_s)} · ${Math.round(triaged_within_share * 100)} % within 3 days`}{" "}
      · {untriaged_groups} group{untriaged_groups === 1 ? "" : "s"} waiting
      {oldestAge !== null ? `, oldest ${formatDuration(oldestAge)}` : ""}
    </p>
  );
}
