import { type FormEvent, useState } from "react";
import type { RunSummary } from "../../../api/types";
import { formatDate } from "../../../lib/time";

interface RunPickerProps {
  runs: readonly RunSummary[];
  baseline: string;
  contender: string;
  onPick: (baseline: string, contender: string) => void;
}

/** Two run selects; the comparison opens on submit. */
export function RunPicker({ runs, baseline, contender, onPick }: RunPickerProps) {
  const [b, setB] = useState(baseline);
  const [c, setC] = useState(contender);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (b && c) onPick(b, c);
  };
  const options = runs.map((r) => (
    <option key={r.id} value={r.id}>
      {formatDate(r.started_at)} · {r.suite} · {r.hardware_name} · {r.id.slice(0, 8)}
    </option>
  ));
  return (
    <form className="actions" onSubmit={submit}>
      <label>
        Baseline{" "}
        <select value={b} onChange={(e) => setB(e.target.value)} required>
          <option value="">choose a run</option>
          {options}
        </select>
      </label>
      <label>
        Contender{" "}
        <select value={c} onChange={(e) => setC(e.target.value)} required>
          <option value="">choose a run</option>
          {options}
        </select>
      </label>
      <button type="submit">Compare</button>
    </form>
  );
}
