import { Link, useParams } from "react-router";
import { NotificationSettingsForm } from "../../features/notifications/components/NotificationSettingsForm";

/** A suite's notification targets, for its maintainers. */
export function NotificationsRoute() {
  const suite = useParams().suite ?? "";
  return (
    <>
      <div className="page-head">
        <h1>Notifications: {suite}</h1>
        <p className="muted">
          One message per alert group and target, through{" "}
          <a href="https://github.com/caronc/apprise/wiki">Apprise</a> URLs: Slack, e-mail (mailto://), Teams,
          Matrix, json:// and more. Changes that join a group after its message come in one follow-up.
        </p>
        <p>
          <Link to={`/regressions?suite=${encodeURIComponent(suite)}`}>← Regressions of {suite}</Link>
        </p>
      </div>
      <NotificationSettingsForm suite={suite} />
    </>
  );
}
