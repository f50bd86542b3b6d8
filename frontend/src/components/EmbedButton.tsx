import { useId, useState } from "react";
import { type Embeddable, embedSnippet, type SnippetFormat } from "../lib/embed";

/** "Embed": a Markdown or HTML snippet of the chart's image on this service, to copy. */
export function EmbedButton({ what, label = "Embed" }: { what: Embeddable; label?: string }) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<SnippetFormat>("markdown");
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const id = useId();
  const snippet = embedSnippet(format, what, window.location.origin);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="embed">
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {label}
      </button>
      {open ? (
        <div id={id} className="embed-panel">
          <fieldset>
            <legend>Snippet</legend>
            {(["markdown", "html"] as const).map((kind) => (
              <label key={kind}>
                <input
                  type="radio"
                  name={`${id}-format`}
                  checked={format === kind}
                  onChange={() => {
                    setFormat(kind);
                    setCopied("idle");
                  }}
                />{" "}
                {kind === "markdown" ? "Markdown" : "HTML"}
              </label>
            ))}
          </fieldset>
          <textarea readOnly rows={3} value={snippet} aria-label={`${format} snippet`} />
          <button type="button" onClick={copy}>
            Copy snippet
          </button>
          <span role="status" aria-live="polite" className="muted">
            {copied === "copied"
              ? "Snippet copied"
              : copied === "failed"
                ? "Select the text and copy it"
                : ""}
          </span>
        </div>
      ) : null}
    </div>
  );
}
