import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { TokenField, WriteError } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { createAnnotation } from "../api";

interface SeriesChoice {
  id: number;
  label: string;
}

const today = () => new Date().toISOString().slice(0, 10);

/** A maintainer's note pinned to one series at a date (UTC), drawn on its history chart. */
export function AnnotationForm({ series }: { series: readonly SeriesChoice[] }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const [seriesId, setSeriesId] = useState(series[0]?.id ?? 0);
  const [date, setDate] = useState(today);
  const [text, setText] = useState("");
  const ids = { series: useId(), date: useId(), text: useId() };
  const chosen = series.some((s) => s.id === seriesId) ? seriesId : (series[0]?.id ?? 0);
  const add = useMutation({
    mutationFn: () =>
      createAnnotation({ text: text.trim(), series_id: chosen, at: `${date}T00:00:00Z` }, token),
    onSuccess: () => {
      setText("");
      void queryClient.invalidateQueries({ queryKey: ["annotations"] });
    },
  });
  return (
    <details className="annotation-form">
      <summary>Add a note to a series (maintainers)</summary>
      <TokenField />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label htmlFor={ids.series}>Series</label>
        <select id={ids.series} value={chosen} onChange={(e) => setSeriesId(Number(e.target.value))}>
          {series.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.date}>Date (UTC)</label>
        <input id={ids.date} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <label htmlFor={ids.text}>Note</label>
        <input
          id={ids.text}
          required
          maxLength={2000}
          value={text}
          placeholder="e.g. runner moved to kernel 6.8"
          onChange={(e) => setText(e.target.value)}
        />
        <div>
          <button type="submit" disabled={!token || add.isPending || !text.trim()}>
            {add.isPending ? "Adding…" : "Add note"}
          </button>{" "}
          {add.isSuccess && !add.isPending ? <span role="status">Added.</span> : null}
        </div>
      </form>
      <WriteError error={add.error} action="add notes" />
    </details>
  );
}
