import { useQuery } from "@tanstack/react-query";
import "../../features/leaderboard/leaderboard.css";
import { Link, useSearchParams } from "react-router";
import { EmbedButton } from "../../components/EmbedButton";
import { Empty, QueryView } from "../../components/Status";
import { boardSeriesQuery } from "../../features/leaderboard/api";
import { BoardControls } from "../../features/leaderboard/components/BoardControls";
import { BoardPicker } from "../../features/leaderboard/components/BoardPicker";
import { LeaderboardTable } from "../../features/leaderboard/components/LeaderboardTable";
import { SweepSection } from "../../features/leaderboard/components/SweepSection";
import {
  type BoardSeries,
  boardGroups,
  chooseGroup,
  paramChoices,
  rankBoard,
} from "../../features/leaderboard/lib/board";
import { sweepParams } from "../../features/leaderboard/lib/sweep";
import { type BoardView, parseBoard, writeBoard } from "../../lib/board";
import { leaderboardChartPath } from "../../lib/embed";
import { studyHref } from "../../lib/links";

function Board({
  view,
  series,
  onChange,
}: {
  view: BoardView;
  series: readonly BoardSeries[];
  onChange: (next: Partial<BoardView>) => void;
}) {
  const groups = boardGroups(series, view.ignore);
  const group = chooseGroup(groups, view.group);
  const entries = group ? rankBoard(group, view.ignore, view.baseline ? Number(view.baseline) : null) : [];
  const baseline = entries.find((e) => String(e.series.id) === view.baseline);
  const sweeps = sweepParams(series, view.ignore);
  const sweep = sweeps.includes(view.sweep) ? view.sweep : sweeps[0];
  const title = `${view.benchmark} · ${view.metric}`;
  return (
    <>
      <BoardControls
        view={view}
        choices={paramChoices(series)}
        groups={groups}
        group={group}
        entries={entries}
        onChange={onChange}
      />
      {group ? (
        <LeaderboardTable
          caption={group.key}
          entries={entries}
          unit={group.series[0]?.base_unit ?? ""}
          baseline={baseline ? { label: baseline.label, id: baseline.series.id } : null}
        />
      ) : (
        <Empty>No series of this benchmark and metric has a value.</Empty>
      )}
      {sweep ? (
        <SweepSection
          title={title}
          series={series}
          params={sweeps}
          param={sweep}
          ignore={view.ignore}
          onParam={(param) => onChange({ sweep: param })}
        />
      ) : null}
    </>
  );
}

export function LeaderboardRoute() {
  const [params, setParams] = useSearchParams();
  const view = parseBoard(params);
  const onChange = (next: Partial<BoardView>) =>
    setParams(writeBoard({ ...view, ...next }), { replace: true });
  const chosen = Boolean(view.suite && view.benchmark && view.metric);
  const series = useQuery(boardSeriesQuery(view));
  return (
    <>
      <div className="page-head">
        <h1>Leaderboard{chosen ? `: ${view.benchmark} · ${view.metric}` : ""}</h1>
        {view.suite ? <Link to={studyHref(view.suite)}>Study page of {view.suite}</Link> : null}
        {chosen ? (
          <EmbedButton
            what={{
              image: leaderboardChartPath(view),
              alt: `${view.suite}: ${view.benchmark}, ${view.metric}, latest value of each series`,
              link: `/leaderboard?${writeBoard(view)}`,
            }}
          />
        ) : null}
      </div>
      <p className="muted">
        Every implementation, language and mode of one benchmark and metric, ranked by its latest value.
        Groups keep apart what differs in params and machine; merge across what only annotates a figure.
      </p>
      <BoardPicker view={view} onChange={onChange} />
      {chosen ? (
        <QueryView query={series} what="leaderboard">
          {(data) => <Board view={view} series={data} onChange={onChange} />}
        </QueryView>
      ) : null}
    </>
  );
}
