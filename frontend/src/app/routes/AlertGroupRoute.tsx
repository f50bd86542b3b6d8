import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { ErrorMessage, Loading } from "../../components/Status";
import { alertGroupQuery } from "../../features/regressions/api";
import { AlertGroupList } from "../../features/regressions/components/AlertGroupList";

/** One alert group, opened: where a notification's link leads. */
export function AlertGroupRoute() {
  const groupId = Number(useParams().groupId);
  const group = useQuery(alertGroupQuery(groupId));
  return (
    <>
      <div className="page-head">
        <h1>Alert group {groupId}</h1>
        <p>
          <Link to="/regressions">← All groups</Link>
        </p>
      </div>
      {group.error ? <ErrorMessage error={group.error} /> : null}
      {group.isPending ? <Loading what="the alert group" /> : null}
      {group.data ? <AlertGroupList items={[group.data]} open={groupId} /> : null}
    </>
  );
}
