import type { ModePair } from "../../../api/types";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { RatioBarChart } from "../../../components/charts/RatioBarChart";
import { useNarrow } from "../../../lib/useMediaQuery";
import type { RatioSection } from "../lib/ratioRows";

/** One log-scale ratio chart per language. */
export function RatioSections({ sections }: { sections: readonly RatioSection<ModePair>[] }) {
  const narrow = useNarrow();
  return (
    <>
      {sections.map((section) => (
        <section
          key={section.language}
          aria-labelledby={`lang-${section.language}`}
          data-language={section.language}
        >
          <h2 className="language-head" id={`lang-${section.language}`}>
            <span className="swatch" style={{ background: section.color }} aria-hidden="true" />
            {section.language}
          </h2>
          <ChartFigure
            title={`${section.language}: async / sync`}
            subtitle="(log scale; 1× = same; green = async better, orange = async worse; whiskers = interval)"
            label={`Ratio chart for ${section.language}: ${section.rows.map((r) => `${r.label}: ${r.wording.text}`).join("; ")}`}
          >
            <RatioBarChart rows={section.rows} narrow={narrow} />
          </ChartFigure>
        </section>
      ))}
    </>
  );
}
