import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { RunDetail } from "../../../api/types";
import { compareHref } from "../../../lib/links";
import { runsQuery } from "../api";
import { previousRun } from "../lib/previousRun";

/** One click to compare a run with the previous run of its suite on its hardware. */
export function PreviousRunLink({ run }: { run: RunDetail }) {
  const runs = useQuery(runsQuery({ suite: run.suite, hardware: run.hardware_name }));
  if (runs.isPending) return <span className="muted">Looking for the previous run…</span>;
  const previous = runs.data ? previousRun(runs.data, run) : null;
  if (!previous)
    return <span className="muted">No earlier run of this suite on this hardware to compare with.</span>;
  return (
    <Link to={compareHref(previous.id, run.id)}>
      Compare with the previous run of this suite and hardware
    </Link>
  );
}
