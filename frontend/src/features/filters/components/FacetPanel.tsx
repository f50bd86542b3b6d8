import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { FacetValue } from "../../../api/types";
import { ErrorMessage } from "../../../components/Status";
import {
  activeCount,
  clearDimension,
  DIMENSIONS,
  type Dimension,
  emptyFilters,
  type Filters,
  toggleValue,
} from "../../../lib/filters";
import { facetsQuery } from "../api";
import { facetChoices, SEARCH_ABOVE } from "../lib/facetChoices";

const LABELS = {
  suite: "Suite",
  benchmark: "Benchmark",
  language: "Language",
  implementation: "Implementation",
  mode: "Mode",
  variant: "Variant",
  hardware: "Hardware",
  metric: "Metric",
} as const satisfies Record<Dimension, string>;

function FacetGroup({
  dimension,
  values,
  selected,
  onToggle,
  onClear,
}: {
  dimension: Dimension;
  values: FacetValue[];
  selected: string[];
  onToggle: (value: string) => void;
  onClear: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const [query, setQuery] = useState("");
  const { listed, total, hidden } = facetChoices(values, selected, { query, expanded });
  const label = LABELS[dimension];
  return (
    <fieldset className="facet" data-dimension={dimension}>
      <legend>
        {label}
        {selected.length ? (
          <button type="button" onClick={onClear} aria-label={`Clear ${label} filter`}>
            clear
          </button>
        ) : null}
      </legend>
      {total > SEARCH_ABOVE ? (
        <input
          type="search"
          className="facet-search"
          placeholder={`Search ${total.toLocaleString("en-US")} values`}
          aria-label={`Search ${label} values`}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      ) : null}
      {total === 0 ? <span className="muted">none</span> : null}
      {query && listed.length === 0 ? <span className="muted">no match</span> : null}
      {listed.map((f) => (
        <label key={f.value} className={f.count === 0 ? "zero" : undefined}>
          <input
            type="checkbox"
            name={dimension}
            value={f.value}
            // Named "dart, 12 series": the label's text alone reads "dart12".
            aria-label={`${f.value}, ${f.count} series`}
            checked={selected.includes(f.value)}
            onChange={() => onToggle(f.value)}
          />
          <span>{f.value}</span>
          <span className="count">{f.count}</span>
        </label>
      ))}
      {query ? (
        hidden ? (
          <span className="muted">{hidden} more match; type more to narrow</span>
        ) : null
      ) : hidden || expanded ? (
        <button
          type="button"
          className="more"
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
        >
          {expanded ? "Show fewer" : `Show all ${total}`}
        </button>
      ) : null}
    </fieldset>
  );
}

/**
 * Which branch's series the view shows. Only where there is a choice: a suite with runs of
 * several branches (or a branch already chosen in the URL).
 */
function BranchSelect({
  values,
  selected,
  onSelect,
}: {
  values: FacetValue[];
  selected: string;
  onSelect: (branch: string) => void;
}) {
  if (values.length < 2 && !selected) return null;
  const known = values.some((v) => v.value === selected);
  return (
    <fieldset className="facet" data-dimension="branch">
      <legend>Branch</legend>
      <select aria-label="Branch" value={selected} onChange={(e) => onSelect(e.target.value)}>
        <option value="">Default branch of each suite</option>
        {values.map((v) => (
          <option key={v.value} value={v.value}>
            {v.value} ({v.count} series)
          </option>
        ))}
        {selected && !known ? <option value={selected}>{selected} (no series)</option> : null}
      </select>
    </fieldset>
  );
}

interface FacetPanelProps {
  filters: Filters;
  onChange: (next: Filters) => void;
  /** Dimensions that make no sense on a view, e.g. mode on the sync-vs-async view. */
  hide?: readonly Dimension[];
  /** Start collapsed (narrow screens). */
  collapsed?: boolean;
}

/** Faceted filters with series counts under the other filters; each change applies at once. */
export function FacetPanel({ filters, onChange, hide = [], collapsed = false }: FacetPanelProps) {
  const facets = useQuery(facetsQuery(filters));
  const active = activeCount(filters);
  return (
    <details className="filters" open={!collapsed} key={String(collapsed)}>
      <summary>Filters{active ? ` (${active} active)` : ""}</summary>
      {active ? (
        <button type="button" onClick={() => onChange(emptyFilters())} style={{ marginTop: "0.5rem" }}>
          Clear all filters
        </button>
      ) : null}
      {facets.error ? <ErrorMessage error={facets.error} /> : null}
      {facets.isPending ? <p className="muted">Loading filters…</p> : null}
      <BranchSelect
        values={facets.data?.dimensions.branch ?? []}
        selected={filters.branch}
        onSelect={(branch) => onChange({ ...filters, branch })}
      />
      {DIMENSIONS.filter((d) => !hide.includes(d)).map((dimension) => (
        <FacetGroup
          key={dimension}
          dimension={dimension}
          values={facets.data?.dimensions[dimension] ?? []}
          selected={filters.values[dimension]}
          onToggle={(value) => onChange(toggleValue(filters, dimension, value))}
          onClear={() => onChange(clearDimension(filters, dimension))}
        />
      ))}
      <fieldset className="facet">
        <legend>Dates (UTC)</legend>
        <div className="dates">
          <label htmlFor="since">From</label>
          <input
            id="since"
            type="date"
            value={filters.since}
            onChange={(e) => onChange({ ...filters, since: e.target.value })}
          />
          <label htmlFor="until">To</label>
          <input
            id="until"
            type="date"
            value={filters.until}
            onChange={(e) => onChange({ ...filters, until: e.target.value })}
          />
        </div>
      </fieldset>
    </details>
  );
}
