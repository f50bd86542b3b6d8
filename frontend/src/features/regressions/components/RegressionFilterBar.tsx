import { CHANGE_DIRECTIONS, TRIAGE_STATUSES } from "../../../api/vocabulary";
import type { RegressionFilters } from "../lib/filters";

type Key = "status" | "direction" | "suite" | "language";

interface Props {
  filters: RegressionFilters;
  suites: readonly string[];
  languages: readonly string[];
  onChange: (key: Key, value: string) => void;
}

function Choice({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: Key;
  value: string | undefined;
  options: readonly { value: string }[];
  onChange: Props["onChange"];
}) {
  return (
    <label>
      {label}{" "}
      <select name={name} value={value ?? ""} onChange={(e) => onChange(name, e.target.value)}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.value}
          </option>
        ))}
      </select>
    </label>
  );
}

const named = (values: readonly string[]) => values.map((value) => ({ value }));

/** Status, direction, suite and language of the changes listed. */
export function RegressionFilterBar({ filters, suites, languages, onChange }: Props) {
  // A value in the URL stays choosable even when the facets do not (yet) list it.
  const withCurrent = (values: readonly string[], current?: string) =>
    current && !values.includes(current) ? [current, ...values] : values;
  return (
    <div className="actions regression-filters">
      <Choice
        label="Status"
        name="status"
        value={filters.status}
        options={named(TRIAGE_STATUSES)}
        onChange={onChange}
      />
      <Choice
        label="Direction"
        name="direction"
        value={filters.direction}
        options={named(CHANGE_DIRECTIONS)}
        onChange={onChange}
      />
      <Choice
        label="Suite"
        name="suite"
        value={filters.suite}
        options={named(withCurrent(suites, filters.suite))}
        onChange={onChange}
      />
      <Choice
        label="Language"
        name="language"
        value={filters.language}
        options={named(withCurrent(languages, filters.language))}
        onChange={onChange}
      />
    </div>
  );
}
