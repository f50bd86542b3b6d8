import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ErrorMessage, Loading } from "../../../components/Status";
import { citationQuery } from "../api";

type CitationFormat = "bibtex" | "cff";

/** "Cite": the study's citation as BibTeX or CITATION.cff, to copy or download. */
export function CiteButton({ suite }: { suite: string }) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<CitationFormat>("bibtex");
  const [copied, setCopied] = useState(false);
  const id = useId();
  const citation = useQuery({ ...citationQuery(suite, format), enabled: open });
  const copy = async () => {
    if (!citation.data) return;
    try {
      await navigator.clipboard.writeText(citation.data);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="cite">
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        Cite
      </button>
      {open ? (
        <div id={id} className="embed-panel">
          <fieldset>
            <legend>Format</legend>
            {(["bibtex", "cff"] as const).map((kind) => (
              <label key={kind}>
                <input
                  type="radio"
                  name={`${id}-format`}
                  checked={format === kind}
                  onChange={() => {
                    setFormat(kind);
                    setCopied(false);
                  }}
                />{" "}
                {kind === "bibtex" ? "BibTeX" : "CITATION.cff"}
              </label>
            ))}
          </fieldset>
          {citation.error ? <ErrorMessage error={citation.error} /> : null}
          {citation.isPending ? <Loading what="citation" /> : null}
          {citation.data ? (
            <>
              <textarea readOnly rows={9} value={citation.data} aria-label={`${format} citation`} />
              <button type="button" onClick={copy}>
                Copy citation
              </button>
              <a
                href={`/api/v1/suites/${encodeURIComponent(suite)}/citation?format=${format}`}
                download={format === "bibtex" ? `${suite}.bib` : "CITATION.cff"}
              >
                Download
              </a>
              <span role="status" aria-live="polite" className="muted">
                {copied ? "Citation copied" : ""}
              </span>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
