/** A suite's notification targets as the form edits them, and back to the API's body: pure, unit-tested. */
import type {
  ChangeDirection,
  NotificationSettings,
  NotificationSettingsOut,
  NotificationTargetIn,
} from "../../../api/types";

export const EVENTS: readonly ChangeDirection[] = ["regression", "improvement"];

/**
 * One row of the form. A saved target has its `id` and shows `url` masked (never editable: the
 * service keeps the secret); a new one has no id and its URL typed in full.
 */
export interface TargetDraft {
  key: string;
  id: number | null;
  url: string;
  events: ChangeDirection[];
  /** The smallest change worth a message, in percent as typed ("5" for 0.05). */
  minPercent: string;
}

let drafted = 0;
const nextKey = () => `new-${++drafted}`;

export function draftsOf(settings: NotificationSettingsOut): TargetDraft[] {
  return settings.targets.map((t) => ({
    key: `saved-${t.id}`,
    id: t.id,
    url: t.url,
    events: EVENTS.filter((e) => t.events.includes(e)),
    minPercent: String(Math.round(t.min_change * 1000) / 10),
  }));
}

export const newDraft = (): TargetDraft => ({
  key: nextKey(),
  id: null,
  url: "",
  events: ["regression"],
  minPercent: "5",
});

/** The PUT body: saved targets by id, new ones by URL; a blank percentage is 0. */
export function settingsBody(drafts: readonly TargetDraft[]): NotificationSettings {
  return {
    targets: drafts.map((d): NotificationTargetIn => {
      const common = {
        events: EVENTS.filter((e) => d.events.includes(e)),
        min_change: fraction(d.minPercent),
      };
      return d.id === null ? { url: d.url.trim(), ...common } : { id: d.id, ...common };
    }),
  };
}

function fraction(percent: string): number {
  const value = Number(percent.trim() || "0");
  // Not a number: sent as is, so the service's 422 names the field.
  return Number.isFinite(value) ? Math.round(value * 1000) / 100_000 : value;
}
