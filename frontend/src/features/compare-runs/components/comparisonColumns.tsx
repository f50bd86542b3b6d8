import type { MatchedResult, UnmatchedResult } from "../../../api/types";
import type { RESULT_IDENTITY_FIELDS } from "../../../api/vocabulary";
import { formatParams } from "../../../lib/identity";
import { formatPValue } from "../../../lib/pValue";
import type { Column } from "../../../lib/table";
import { formatValue } from "../../../lib/units";
import { formatChange, VERDICT_TEXT } from "../lib/changes";

type Identity = Pick<MatchedResult, (typeof RESULT_IDENTITY_FIELDS)[number]>;

function identityColumns<Row extends Identity>(): Column<Row>[] {
  return [
    { id: "benchmark", header: "Benchmark", text: (r) => r.benchmark },
    { id: "params", header: "Params", text: (r) => formatParams(r.params) },
    { id: "language", header: "Language", text: (r) => r.language },
    { id: "implementation", header: "Implementation", text: (r) => r.implementation ?? "" },
    { id: "mode", header: "Mode", text: (r) => r.mode ?? "" },
    { id: "variant", header: "Variant", text: (r) => r.variant ?? "" },
    { id: "metric", header: "Metric", text: (r) => r.metric },
  ];
}

type Side = MatchedResult["baseline"];

function valueColumn<Row>(id: string, header: string, side: (r: Row) => Side): Column<Row> {
  return {
    id,
    header,
    align: "end",
    text: (r) => formatValue(side(r).value, side(r).unit),
    sortValue: (r) => side(r).value_base,
    raw: (r) => ({ [header]: side(r).value, [`${header} unit`]: side(r).unit }),
    dataValue: (r) => side(r).value,
  };
}

type ComparedSide = keyof MatchedResult["basis"]["compared"];

/**
 * The figure the verdict compared for one side (in the series' base unit), named: "4.95 µs median
 * of 5". The change is that of these two figures, not of the runs' headline values.
 */
function comparedColumn(id: ComparedSide, header: string): Column<MatchedResult> {
  const level = (r: MatchedResult) => r.basis.compared[id];
  const value = (r: MatchedResult) => formatValue(level(r).value, r.base_unit);
  return {
    id,
    header,
    align: "end",
    text: (r) => [value(r), level(r).label].filter(Boolean).join(" "),
    render: (r) => (
      <>
        {value(r)}
        {level(r).label ? <span className="muted"> {level(r).label}</span> : null}
      </>
    ),
    sortValue: (r) => level(r).value,
    raw: (r) => ({
      [header]: level(r).value,
      [`${header} unit`]: r.base_unit,
      [`${header} figure`]: level(r).label ?? level(r).of,
    }),
    dataValue: (r) => level(r).value,
  };
}

const change: Column<MatchedResult> = {
  id: "change",
  header: "Change",
  align: "end",
  text: (r) => formatChange(r.relative_change),
  sortValue: (r) => r.relative_change ?? null,
  raw: (r) => ({ Change: r.relative_change ?? null }),
  dataValue: (r) => r.relative_change ?? null,
};

const verdict: Column<MatchedResult> = {
  id: "verdict",
  header: "Verdict",
  text: (r) => VERDICT_TEXT[r.verdict],
  render: (r) => <span className={`verdict-${r.verdict}`}>{VERDICT_TEXT[r.verdict]}</span>,
};

const significance: Column<MatchedResult> = {
  id: "p",
  header: "Significance",
  // "n/a": the service had no samples or stats to test.
  text: (r) => formatPValue(r.p_value, "n/a"),
  sortValue: (r) => r.p_value ?? null,
  raw: (r) => ({ "p-value": r.p_value ?? null }),
};

/** What the verdict rests on, in the service's words (the noise model it used, or why none). */
const basis: Column<MatchedResult> = {
  id: "basis",
  header: "Judged on",
  text: (r) => r.basis.text,
};

/** The change and its verdict first, so they stay in view on narrow screens. */
export const matchedColumns: Column<MatchedResult>[] = [
  change,
  verdict,
  comparedColumn("baseline", "Baseline"),
  comparedColumn("contender", "Contender"),
  significance,
  basis,
  ...identityColumns<MatchedResult>(),
  { id: "direction", header: "Better", text: (r) => r.direction },
];

export const unmatchedColumns: Column<UnmatchedResult>[] = [
  ...identityColumns<UnmatchedResult>(),
  valueColumn("value", "Value", (r) => r.side),
];

/** Compare's three tables by the name their sort has in the URL (`useUrlSort`), with their columns. */
export const compareTables = {
  shared: matchedColumns,
  baseline: unmatchedColumns,
  contender: unmatchedColumns,
} as const;

export type CompareTable = keyof typeof compareTables;
