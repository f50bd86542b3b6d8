/** Dates as the dashboard shows them: UTC, since the studies give dates, not local times. */

const DATE = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});
const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

export function formatDate(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return "—";
  return DATE.format(new Date(iso));
}

export function formatDateTime(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return "—";
  return DATE_TIME.format(new Date(iso));
}

/** "15 Feb 2013 – 20 Mar 2025", or one date when both ends are the same day. */
export function formatDateRange(first: string | null | undefined, last: string | null | undefined): string {
  const a = formatDate(first);
  const b = formatDate(last);
  return a === b ? a : `${a} – ${b}`;
}
