import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { FindingIn, FindingsUpdate, Study, SuiteUpdate } from "../../../api/types";
import { TokenField, WriteError } from "../../../components/TokenField";
import { implementationLabel, workloadLabel } from "../../../lib/identity";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { formatValue } from "../../../lib/units";
import { replaceFindings, runResultsQuery, updateStudy } from "../api";
import { findingInput, formatLinks, move, parseAuthors, parseLinks, textOrNull } from "../lib/metadata";

function useStudyWrite<T>(suite: string, write: (body: T, token: string) => Promise<unknown>) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => write(body, token),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["study", suite] });
      void queryClient.invalidateQueries({ queryKey: ["suites"] });
    },
  });
}

function Saved({ shown }: { shown: boolean }) {
  return shown ? (
    <span role="status" className="saved">
      Saved.
    </span>
  ) : null;
}

/** Title, description, authors and links, sent with the maintainer's token. */
function MetadataForm({ study }: { study: Study }) {
  const { token } = useMaintainerToken();
  const [title, setTitle] = useState(study.title ?? "");
  const [description, setDescription] = useState(study.description ?? "");
  const [authors, setAuthors] = useState(study.authors.join("\n"));
  const [links, setLinks] = useState(formatLinks(study.links));
  const save = useStudyWrite(study.suite, (update: SuiteUpdate, t) => updateStudy(study.suite, update, t));
  const id = useId();
  return (
    <form
      className="stack-form"
      aria-label="Study details"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          title: textOrNull(title),
          description: textOrNull(description),
          authors: parseAuthors(authors),
          links: parseLinks(links),
        });
      }}
    >
      <h3>Details</h3>
      <label htmlFor={`${id}-title`}>Title</label>
      <input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={`${id}-description`}>Description</label>
      <textarea
        id={`${id}-description`}
        rows={3}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <label htmlFor={`${id}-authors`}>Authors (one per line)</label>
      <textarea id={`${id}-authors`} rows={2} value={authors} onChange={(e) => setAuthors(e.target.value)} />
      <label htmlFor={`${id}-links`}>Sources (one per line: label | https://…)</label>
      <textarea
        id={`${id}-links`}
        rows={2}
        value={links}
        placeholder="Article | https://example.org/post"
        onChange={(e) => setLinks(e.target.value)}
      />
      <div>
        <button type="submit" disabled={save.isPending || !token}>
          {save.isPending ? "Saving…" : "Save details"}
        </button>{" "}
        <Saved shown={save.isSuccess && !save.isPending} />
      </div>
      <WriteError error={save.error} action="edit studies" />
    </form>
  );
}

interface SideDraft {
  runId: string;
  seriesId: string;
  label: string;
}

/** One side of a new finding: a run of the study, one of its results, and what readers call it. */
function SidePicker({
  name,
  study,
  draft,
  onChange,
}: {
  name: "Numerator" | "Denominator";
  study: Study;
  draft: SideDraft;
  onChange: (draft: SideDraft) => void;
}) {
  const run = useQuery(runResultsQuery(draft.runId));
  const id = useId();
  return (
    <div className="stack-form">
      <label htmlFor={`${id}-run`}>{name}'s run</label>
      <select
        id={`${id}-run`}
        value={draft.runId}
        onChange={(e) => onChange({ ...draft, runId: e.target.value, seriesId: "" })}
      >
        {study.runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name ?? r.id}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-result`}>{name}</label>
      <select
        id={`${id}-result`}
        value={draft.seriesId}
        onChange={(e) => onChange({ ...draft, seriesId: e.target.value })}
      >
        <option value="">Choose a result…</option>
        {(run.data?.results ?? []).map((r) => (
          <option key={r.series_id} value={r.series_id}>
            {`${workloadLabel(r.benchmark, r.params)} · ${implementationLabel(r)} · ${r.metric} = ${formatValue(r.value, r.unit)}`}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-label`}>Its label (what readers call it)</label>
      <input
        id={`${id}-label`}
        value={draft.label}
        placeholder={name === "Numerator" ? "async" : "sync"}
        onChange={(e) => onChange({ ...draft, label: e.target.value })}
      />
    </div>
  );
}

const toSide = (draft: SideDraft) => ({
  run_id: draft.runId,
  series_id: Number(draft.seriesId),
  label: draft.label.trim(),
});

/** Picks two results (of one run or two), their labels and the sentence's end. */
function NewFinding({ study, onAdd }: { study: Study; onAdd: (finding: FindingIn) => void }) {
  const blank = { runId: study.runs[0]?.id ?? "", seriesId: "", label: "" };
  const [numerator, setNumerator] = useState<SideDraft>(blank);
  const [denominator, setDenominator] = useState<SideDraft>(blank);
  const [context, setContext] = useState("");
  const [note, setNote] = useState("");
  const id = useId();
  const ready = [numerator, denominator].every((side) => side.seriesId && side.label.trim());
  return (
    <fieldset className="stack-form">
      <legend>Pin a finding: numerator ÷ denominator</legend>
      <SidePicker name="Numerator" study={study} draft={numerator} onChange={setNumerator} />
      <SidePicker name="Denominator" study={study} draft={denominator} onChange={setDenominator} />
      <label htmlFor={`${id}-context`}>End of the sentence</label>
      <input
        id={`${id}-context`}
        value={context}
        placeholder="for 10,000 tiny writes"
        onChange={(e) => setContext(e.target.value)}
      />
      <label htmlFor={`${id}-note`}>Note (where it comes from, what the source says)</label>
      <textarea id={`${id}-note`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      <div>
        <button
          type="button"
          disabled={!ready}
          onClick={() =>
            onAdd({
              numerator: toSide(numerator),
              denominator: toSide(denominator),
              context: textOrNull(context),
              note: textOrNull(note),
            })
          }
        >
          Pin finding
        </button>
      </div>
    </fieldset>
  );
}

/** The pinned findings: reorder, remove, add; every change is saved at once, as a whole. */
function FindingsEditor({ study }: { study: Study }) {
  const { token } = useMaintainerToken();
  const save = useStudyWrite(study.suite, (update: FindingsUpdate, t) =>
    replaceFindings(study.suite, update, t),
  );
  const current = study.findings.map(findingInput);
  const write = (findings: FindingIn[]) => save.mutate({ findings });
  const list = useRef<HTMLOListElement>(null);
  // Where a moved finding went: the saved list comes back as new rows, and at either end the
  // button pressed is disabled, so the focus is put back on that finding's buttons by hand.
  const [moved, setMoved] = useState<{ index: number; by: -1 | 1; before: Study["findings"] } | null>(null);
  useEffect(() => {
    if (!moved || moved.before === study.findings) return;
    const buttons =
      list.current?.children[moved.index]?.querySelectorAll<HTMLButtonElement>("button[data-move]");
    const [up, down] = buttons ?? [];
    const pressed = moved.by === -1 ? up : down;
    (pressed?.disabled ? (moved.by === -1 ? down : up) : pressed)?.focus();
  }, [moved, study.findings]);
  const moveTo = (index: number, by: -1 | 1) => {
    write(move(current, index, by));
    setMoved({ index: index + by, by, before: study.findings });
  };
  return (
    <section className="stack-form" aria-label="Pinned findings">
      <h3>Findings</h3>
      <ol className="finding-editor" ref={list}>
        {study.findings.map((finding, index) => (
          <li key={finding.id}>
            <span>{finding.text}</span>{" "}
            <button
              type="button"
              data-move="up"
              disabled={!token || index === 0}
              onClick={() => moveTo(index, -1)}
              aria-label={`Move up: ${finding.text}`}
            >
              Up
            </button>{" "}
            <button
              type="button"
              data-move="down"
              disabled={!token || index === current.length - 1}
              onClick={() => moveTo(index, 1)}
              aria-label={`Move down: ${finding.text}`}
            >
              Down
            </button>{" "}
            <button
              type="button"
              disabled={!token}
              onClick={() => write(current.filter((_, i) => i !== index))}
              aria-label={`Remove: ${finding.text}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      {token ? <NewFinding study={study} onAdd={(finding) => write([...current, finding])} /> : null}
      <Saved shown={save.isSuccess && !save.isPending} />
      <WriteError error={save.error} action="edit studies" />
    </section>
  );
}

/** What a maintainer changes on the page: the details and the pinned findings. */
export function StudyMaintenance({ study }: { study: Study }) {
  return (
    <details className="maintain">
      <summary>Maintain this study</summary>
      <TokenField />
      <MetadataForm study={study} />
      <FindingsEditor study={study} />
    </details>
  );
}
