import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import type { Facets } from "../../api/types";
import { DetectionPending, Empty, ErrorMessage, Loading } from "../../components/Status";
import { facetsQuery } from "../../features/filters/api";
import { alertGroupsQuery, regressionsQuery } from "../../features/regressions/api";
import { AlertGroupList } from "../../features/regressions/components/AlertGroupList";
import { RegressionFilterBar } from "../../features/regressions/components/RegressionFilterBar";
import { RegressionList } from "../../features/regressions/components/RegressionList";
import { TriageHealthLine } from "../../features/regressions/components/TriageHealthLine";
import { parseRegressionFilters, setRegressionFilter } from "../../features/regressions/lib/filters";
import { type Dimension, emptyFilters } from "../../lib/filters";

const values = (facets: Facets | undefined, dimension: Dimension) =>
  (facets?.dimensions[dimension] ?? []).map((v) => v.value);

/** The page's two views: changes grouped by cause (the default), or every change on its own. */
function ViewTabs({ params, byChange }: { params: URLSearchParams; byChange: boolean }) {
  const to = (view: string | undefined) => {
    const next = setRegressionFilter(params, "cursor", undefined);
    if (view) next.set("view", view);
    else next.delete("view");
    return `?${next.toString()}`;
  };
  return (
    <nav className="view-tabs" aria-label="Views">
      <Link to={to(undefined)} aria-current={byChange ? undefined : "page"}>
        Grouped by cause
      </Link>
      <Link to={to("changes")} aria-current={byChange ? "page" : undefined}>
        Every change
      </Link>
    </nav>
  );
}

function GroupsView({ filters }: { filters: ReturnType<typeof parseRegressionFilters> }) {
  const groups = useQuery(alertGroupsQuery({ suite: filters.suite, status: filters.status }));
  if (groups.error) return <ErrorMessage error={groups.error} />;
  if (!groups.data) return <Loading what="alert groups" />;
  if (groups.data.items.length === 0) return <Empty>No alert groups match these filters.</Empty>;
  return <AlertGroupList items={groups.data.items} />;
}

export function RegressionsRoute() {
  const [params, setParams] = useSearchParams();
  const filters = parseRegressionFilters(params);
  const byChange = params.get("view") === "changes";
  const page = useQuery({ ...regressionsQuery(filters), enabled: byChange });
  const facets = useQuery(facetsQuery(emptyFilters()));
  const pageLink = (cursor: string | undefined) =>
    `?${setRegressionFilter(params, "cursor", cursor).toString()}`;
  return (
    <>
      <div className="page-head">
        <h1>Regressions</h1>
        <p className="muted">Changes found in each series' history after every upload, newest first.</p>
        <TriageHealthLine suite={filters.suite} />
        {filters.suite ? (
          <p>
            <Link to={`/suites/${encodeURIComponent(filters.suite)}/notifications`}>
              Notifications of {filters.suite}
            </Link>
          </p>
        ) : null}
      </div>
      <ViewTabs params={params} byChange={byChange} />
      <RegressionFilterBar
        filters={filters}
        suites={values(facets.data, "suite")}
        languages={values(facets.data, "language")}
        onChange={(key, value) => setParams(setRegressionFilter(params, key, value))}
      />
      {byChange ? null : <GroupsView filters={filters} />}
      {byChange && page.data ? (
        <DetectionPending
          series={page.data.detection_pending_series}
          scope="series matching these filters"
          effect="this list may still grow."
        />
      ) : null}
      {byChange && page.error ? <ErrorMessage error={page.error} /> : null}
      {byChange && page.isPending ? <Loading what="regressions" /> : null}
      {byChange && page.data ? (
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
