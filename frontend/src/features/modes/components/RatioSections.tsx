import { ChartFigure } from "../../../components/charts/ChartFigure";
import { RatioBarChart } from "../../../components/charts/RatioBarChart";
import { ratioTicks } from "../../../lib/logScale";
import { useNarrow } from "../../../lib/useMediaQuery";
import type { RatioRow, RatioSection } from "../lib/ratioRows";

const barEnds = (rows: readonly RatioRow[]) =>
  rows.flatMap((r) => [r.logRatio - (r.error?.[0] ?? 0), r.logRatio + (r.error?.[1] ?? 0)]);

/** Per language, one log-scale ratio chart per workload, all on the language's shared axis. */
export function RatioSections({ sections }: { sections: readonly RatioSection[] }) {
  const narrow = useNarrow();
  return (
    <>
      {sections.map((section) => {
        const ticks = ratioTicks(barEnds(section.rows));
        return (
          <section
            key={section.language}
            aria-labelledby={`lang-${section.language}`}
            data-language={section.language}
          >
            <h2 className="language-head" id={`lang-${section.language}`}>
              <span className="swatch" style={{ background: section.color }} aria-hidden="true" />
              {section.language}
            </h2>
            {section.groups.map((group) => (
              <ChartFigure
                key={group.key}
                title={group.title}
                subtitle={group.sides ? `— ${group.sides}` : undefined}
                label={`async over sync for ${group.title}: ${group.rows.map((r) => `${r.label}: ${r.wording.text}`).join("; ")}`}
              >
                <RatioBarChart rows={group.rows} ticks={ticks} narrow={narrow} />
              </ChartFigure>
            ))}
          </section>
        );
      })}
    </>
  );
}
