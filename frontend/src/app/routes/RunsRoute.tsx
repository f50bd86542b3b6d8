import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { Empty, QueryView } from "../../components/Status";
import { runsQuery } from "../../features/runs/api";
import { runListColumns } from "../../features/runs/components/runColumns";

export function RunsRoute() {
  const [params] = useSearchParams();
  const filter = {
    suite: params.get("suite") ?? undefined,
    branch: params.get("branch") ?? undefined,
    hardware: params.get("hardware") ?? undefined,
  };
  const runs = useQuery(runsQuery(filter));
  const [sort, toggleSort] = useUrlSort("started", "desc");
  const rows = useSortedRows(runs.data ?? [], runListColumns, sort);
  return (
    <>
      <div className="page-head">
        <h1>
          Runs{filter.suite ? ` of ${filter.suite}` : ""}
          {filter.branch ? ` on ${filter.branch}` : ""}
        </h1>
        <ShareBar
          view="runs"
          columns={runListColumns}
          rows={rows}
          filters={{
            suite: filter.suite ?? "",
            branch: filter.branch ?? "",
            hardware: filter.hardware ?? "",
          }}
        />
      </div>
      <QueryView query={runs} what="runs">
        {() =>
          rows.length === 0 ? (
            <Empty>No runs.</Empty>
          ) : (
            <DataTable
              caption="Runs, newest first"
              columns={runListColumns}
              rows={rows}
              rowKey={(r) => r.id}
              sort={sort}
              onSort={toggleSort}
            />
          )
        }
      </QueryView>
    </>
  );
}
