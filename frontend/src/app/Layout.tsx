import { Suspense } from "react";
import { Link, NavLink, Outlet, useNavigation } from "react-router";
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
];

export function Layout() {
  const navigation = useNavigation();
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
      <main id="content">
        <Suspense fallback={<Loading what="page" />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
