import { useQuery } from "@tanstack/react-query";
import "../../features/studies/studies.css";
import { Empty, QueryView } from "../../components/Status";
import { suitesQuery } from "../../features/studies/api";
import { StudyCard } from "../../features/studies/components/StudyCard";

export function StudiesRoute() {
  const suites = useQuery(suitesQuery());
  return (
    <>
      <h1>Studies</h1>
      <p className="muted">Every benchmark suite in the database. Open one to explore its results.</p>
      <QueryView query={suites} what="studies">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No studies yet. Upload a run to POST /api/v1/runs to start one.</Empty>
          ) : (
            <div className="cards">
              {data.items.map((suite) => (
                <StudyCard key={suite.suite} suite={suite} />
              ))}
            </div>
          )
        }
      </QueryView>
    </>
  );
}
