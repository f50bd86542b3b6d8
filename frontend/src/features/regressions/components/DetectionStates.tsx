import type { SeriesDetection } from "../../../api/types";

/** Each series' change-detection state in the service's words (what it can see, or what it lacks). */
export function DetectionStates({
  states,
  seriesLabel,
}: {
  states: readonly SeriesDetection[];
  seriesLabel?: (id: number) => string;
}) {
  if (states.length === 0) return null;
  return (
    <section className="detection-states" aria-label="Change detection">
      <h2>Change detection</h2>
      <ul>
        {states.map((state) => (
          <li key={state.series_id} data-readiness={state.readiness}>
            {seriesLabel ? <strong>{seriesLabel(state.series_id)}: </strong> : null}
            {state.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
