/** How an alert group and triage health read: pure, unit-tested. */
import type { AlertGroup } from "../../../api/types";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** "50 regressions, 2 improvements at commit 0a1b2c3d4e5f" */
export function groupTitle(group: Pick<AlertGroup, "by_direction" | "cause" | "commit">): string {
  const counts = [
    [group.by_direction.regression ?? 0, "regression"],
    [group.by_direction.improvement ?? 0, "improvement"],
  ] as const;
  const said = counts.filter(([count]) => count > 0).map(([count, word]) => plural(count, word));
  const cause =
    group.cause === "commit" && group.commit
      ? `at commit ${group.commit.slice(0, 12)}`
      : group.cause === "run"
        ? "in one run"
        : "set apart";
  return `${said.join(", ")} ${cause}`;
}

/** How many of the group's changes still await triage. */
export const untriagedCount = (group: Pick<AlertGroup, "by_status">) => group.by_status.untriaged ?? 0;

/** A span of seconds as people say it: "45 s", "12 min", "5.5 h", "3.2 days". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "–";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}
