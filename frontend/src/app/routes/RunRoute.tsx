import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import type { RunDetail } from "../../api/types";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { DetectionPending, QueryView } from "../../components/Status";
import { runQuery } from "../../features/runs/api";
import { PreviousRunLink } from "../../features/runs/components/PreviousRunLink";
import { RunMeta } from "../../features/runs/components/RunMeta";
import { resultColumns } from "../../features/runs/components/runColumns";
import { uploadHref } from "../../lib/links";

function RunPage({ run }: { run: RunDetail }) {
  const [sort, toggleSort] = useUrlSort("benchmark");
  const rows = useSortedRows(run.results, resultColumns, sort);
  return (
    <>
      <div className="page-head">
        <h1>{run.name ?? run.id}</h1>
        <ShareBar view={`run-${run.id}`} columns={resultColumns} rows={rows} filters={{ run: run.id }} />
      </div>
      <div className="actions">
        <PreviousRunLink run={run} />
        <a href={uploadHref(run.id)} download={`run-${run.id}.json`}>
          Download the raw upload (JSON)
        </a>
        <Link to={`/runs?suite=${encodeURIComponent(run.suite)}`}>Other runs of {run.suite}</Link>
      </div>
      <DetectionPending
        series={run.detection_pending_series}
        scope="of this run's series"
        effect="changes it shows will be listed under Regressions once checked."
      />
      <RunMeta run={run} />
      <h2>Results</h2>
      <DataTable
        caption={`${run.results.length} results of this run`}
        columns={resultColumns}
        rows={rows}
        rowKey={(r) => String(r.id)}
        sort={sort}
        onSort={toggleSort}
      />
    </>
  );
}

export function RunRoute() {
  const { runId = "" } = useParams();
  const run = useQuery(runQuery(runId));
  return (
    <QueryView query={run} what="run">
      {(data) => <RunPage run={data} />}
    </QueryView>
  );
}
