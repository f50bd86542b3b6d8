import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { DetectionPending } from "../../../components/Status";
import { seriesPendingQuery } from "../api";

/**
 * While the change's series waits for change detection, says so; once it is checked, shows the
 * change as detection left it (refined, confirmed or retracted) by fetching it again.
 */
export function ChangePending({ seriesId }: { seriesId: number }) {
  const queryClient = useQueryClient();
  const pending = useQuery(seriesPendingQuery(seriesId)).data ?? 0;
  const wasPending = useRef(false);
  useEffect(() => {
    if (pending > 0) {
      wasPending.current = true;
    } else if (wasPending.current) {
      wasPending.current = false;
      void queryClient.invalidateQueries({ queryKey: ["regressions"] });
    }
  }, [pending, queryClient]);
  return (
    <DetectionPending
      series={pending}
      scope="series of this change"
      effect="its size, evidence and status may still change once it is checked."
    />
  );
}
