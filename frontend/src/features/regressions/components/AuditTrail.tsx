import { useQuery } from "@tanstack/react-query";
import { QueryView } from "../../../components/Status";
import { formatDateTime } from "../../../lib/time";
import { auditTrailQuery } from "../api";
import { describeChanges } from "../lib/wording";

/** Who changed what and when, the detector included, oldest first. */
export function AuditTrail({ regressionId }: { regressionId: number }) {
  const trail = useQuery(auditTrailQuery(regressionId));
  return (
    <section className="audit-trail">
      <h2>Audit trail</h2>
      <QueryView query={trail} what="audit trail">
        {(data) => (
          <ol>
            {data.items.map((event) => (
              <li key={event.id}>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time> · <strong>{event.actor}</strong>
                <ul>
                  {describeChanges(event.changes).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </QueryView>
    </section>
  );
}
