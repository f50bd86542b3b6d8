import { TokenManager } from "../../features/tokens/components/TokenManager";

export function TokensRoute() {
  return (
    <>
      <div className="page-head">
        <h1>API tokens</h1>
      </div>
      <p className="muted">
        Tokens for runners (upload), readers of private suites (read) and maintainers (maintain), limited to
        your suites. A token's secret is shown once, when it is made.
      </p>
      <TokenManager />
    </>
  );
}
