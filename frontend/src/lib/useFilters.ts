import { useSearchParams } from "react-router";
import { parseFilters, parseHistoryFilters, writeFilters, writeHistoryFilters } from "./filters";

/** State read from and written to the URL, keeping its other keys; each change is a history entry. */
function useUrlState<State>(
  parse: (params: URLSearchParams) => State,
  write: (next: State, base: URLSearchParams) => URLSearchParams,
): [State, (next: State) => void] {
  const [params, setParams] = useSearchParams();
  return [parse(params), (next) => setParams((prev) => write(next, prev))];
}

/** The facet filters of Explore and Sync vs async. */
export const useFilters = () => useUrlState(parseFilters, writeFilters);

/** The History page's series and dates. */
export const useHistoryFilters = () => useUrlState(parseHistoryFilters, writeHistoryFilters);
