import { Suspense, useEffect, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLocation, useNavigation } from "react-router";
import { Loading } from "../components/Status";

const NAV = [
  { to: "/", label: "Studies", end: true },
  { to: "/explore", label: "Explore" },
  { to: "/modes", label: "Sync vs async" },
  { to: "/leaderboard", label: "Leaderboards" },
  { to: "/history", label: "History" },
  { to: "/runs", label: "Runs" },
  { to: "/compare", label: "Compare runs" },
  { to: "/regressions", label: "Regressions" },
  { to: "/tokens", label: "Tokens" },
];

/** How long a new page may take to show its heading (it may wait for its data) before we give up. */
const HEADING_WAIT_MS = 10_000;

/**
 * After moving to another page (not on the first load, nor when only the query changes, as filters
 * do), puts the focus on the new page's heading, so keyboard and screen-reader users start reading
 * there rather than at the link they left, and announces the page; returns the announcement.
 */
function useFocusOnPageChange(): string {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState("");
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const deadline = performance.now() + HEADING_WAIT_MS;
    let frame = 0;
    const look = () => {
      const heading = document.querySelector<HTMLElement>("main h1");
      if (!heading) {
        if (performance.now() < deadline) frame = requestAnimationFrame(look);
        return;
      }
      heading.tabIndex = -1;
      heading.focus();
      setAnnouncement(`${heading.textContent ?? ""} page`);
    };
    look();
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return announcement;
}

export function Layout() {
  const navigation = useNavigation();
  const announcement = useFocusOnPageChange();
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Benchboard
        </Link>
        <nav className="app-nav" aria-label="Main">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        {navigation.state === "loading" ? <span className="muted">Loading…</span> : null}
      </header>
      <p className="visually-hidden" aria-live="polite" data-testid="page-announcement">
        {announcement}
      </p>
      <main id="content">
        <Suspense fallback={<Loading what="page" />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
