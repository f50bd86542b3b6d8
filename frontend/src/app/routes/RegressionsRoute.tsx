import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import type { Facets } from "../../api/types";
import { DetectionPending, Empty, ErrorMessage, Loading } from "../../components/Status";
import { facetsQuery } from "../../features/filters/api";
import { regressionsQuery } from "../../features/regressions/api";
import { RegressionFilterBar } from "../../features/regressions/components/RegressionFilterBar";
import { RegressionList } from "../../features/regressions/components/RegressionList";
import { parseRegressionFilters, setRegressionFilter } from "../../features/regressions/lib/filters";
import { type Dimension, emptyFilters } from "../../lib/filters";

const values = (facets: Facets | undefined, dimension: Dimension) =>
  (facets?.dimensions[dimension] ?? []).map((v) => v.value);

export function RegressionsRoute() {
  const [params, setParams] = useSearchParams();
  const filters = parseRegressionFilters(params);
  const page = useQuery(regressionsQuery(filters));
  const facets = useQuery(facetsQuery(emptyFilters()));
  const pageLink = (cursor: string | undefined) =>
    `?${setRegressionFilter(params, "cursor", cursor).toString()}`;
  return (
    <>
      <div className="page-head">
        <h1>Regressions</h1>
        <p className="muted">Changes found in each series' history after every upload, newest first.</p>
      </div>
      <RegressionFilterBar
        filters={filters}
        suites={values(facets.data, "suite")}
        languages={values(facets.data, "language")}
        onChange={(key, value) => setParams(setRegressionFilter(params, key, value))}
      />
      {page.data ? (
        <DetectionPending
          series={page.data.detection_pending_series}
          scope="series matching these filters"
          effect="this list may still grow."
        />
      ) : null}
      {page.error ? <ErrorMessage error={page.error} /> : null}
      {page.isPending ? <Loading what="regressions" /> : null}
      {page.data ? (
        page.data.items.length === 0 ? (
          <Empty>
            No detected changes{filters.cursor ? " on this page" : ""} match these filters.
            {page.data.history_support ? ` ${page.data.history_support.text}` : null}
          </Empty>
        ) : (
          <div aria-busy={page.isPlaceholderData}>
            <RegressionList items={page.data.items} />
          </div>
        )
      ) : null}
      <nav className="pager" aria-label="Pages">
        {filters.cursor ? <Link to={pageLink(undefined)}>← Newest</Link> : null}
        {page.data?.next_cursor ? <Link to={pageLink(page.data.next_cursor)}>Older →</Link> : null}
      </nav>
    </>
  );
}
