import { useQuery } from "@tanstack/react-query";
import "../../features/studies/studies.css";
import { useParams } from "react-router";
import { QueryView } from "../../components/Status";
import { studyQuery } from "../../features/studies/api";
import { FindingList } from "../../features/studies/components/FindingList";
import { HardwareList, StudyRuns, WorkloadList } from "../../features/studies/components/StudyFacts";
import { StudyHeader } from "../../features/studies/components/StudyHeader";
import { StudyMaintenance } from "../../features/studies/components/StudyMaintenance";

export function StudyRoute() {
  const { suite = "" } = useParams();
  const study = useQuery(studyQuery(suite));
  return (
    <QueryView query={study} what="study">
      {(data) => (
        <article className="study">
          <StudyHeader study={data} />
          <section aria-labelledby="findings-h">
            <h2 id="findings-h">Key findings</h2>
            <FindingList findings={data.findings} />
          </section>
          <section aria-labelledby="workloads-h">
            <h2 id="workloads-h">Leaderboards</h2>
            <WorkloadList study={data} />
          </section>
          <section aria-labelledby="hardware-h">
            <h2 id="hardware-h">Hardware</h2>
            <HardwareList hardware={data.hardware} />
          </section>
          <section aria-labelledby="runs-h">
            <h2 id="runs-h">Runs</h2>
            <StudyRuns study={data} />
          </section>
          <StudyMaintenance key={data.suite} study={data} />
        </article>
      )}
    </QueryView>
  );
}
