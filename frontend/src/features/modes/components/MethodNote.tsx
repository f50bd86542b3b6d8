/** How the ratio and its interval are computed (by the service: benchboard.stats.intervals). */
export function MethodNote() {
  return (
    <details className="method">
      <summary>How the ratio and interval are computed</summary>
      <p>
        Bars start at 1× on a log scale: right of it async is larger, left of it smaller. Green means async is
        better for that metric, orange worse, grey about the same; whiskers show the interval below. The ratio
        is the async value over the sync value of the latest run of each series, in one base unit. For
        lower-is-better metrics a ratio above 1 means async is slower; for higher-is-better metrics
        (throughput, IOPS) it means async is faster.
      </p>
      <p>
        <strong>95% interval</strong> where a side reports its samples, or its sample count and standard
        deviation: the delta method on the log ratio, Var(ln r) ≈ s<sub>a</sub>²/(n<sub>a</sub>·m<sub>a</sub>
        ²) + s<sub>s</sub>²/(n
        <sub>s</sub>·m
        <sub>s</sub>²), bounds r·exp(±t·√Var) with Student's t at Welch–Satterthwaite degrees of freedom. A
        side without spread counts as exact.
      </p>
      <p>
        <strong>Range</strong> where a side only reports a minimum and maximum (e.g. "84–91 µs"): the extreme
        ratios those ranges allow, min<sub>a</sub>/max<sub>s</sub> to max<sub>a</sub>/min<sub>s</sub>. That is
        not a confidence interval.
      </p>
    </details>
  );
}
