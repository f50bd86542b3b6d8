import { useSearchParams } from "react-router";
import { type Filters, parseFilters, writeFilters } from "./filters";

/** The view's filters, read from and written to the URL (each change is a history entry). */
export function useFilters(): [Filters, (next: Filters) => void] {
  const [params, setParams] = useSearchParams();
  const filters = parseFilters(params);
  const setFilters = (next: Filters) => setParams((prev) => writeFilters(next, prev));
  return [filters, setFilters];
}
