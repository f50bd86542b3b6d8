import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { TokenIn } from "../../api/types";
import { bearer } from "../../lib/maintainerToken";

/** The tokens this maintainer's token manages (admins: every token). Never a secret. */
export const tokensQuery = (token: string) =>
  queryOptions({
    queryKey: ["tokens", token],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/tokens", { headers: bearer(token), signal })),
    enabled: token !== "",
  });

/** A new token; its secret is in the answer's `token`, shown this once. */
export const createToken = (body: TokenIn, token: string) =>
  unwrap(api.POST("/api/v1/tokens", { body, headers: bearer(token) }));

export const revokeToken = (id: number, token: string) =>
  unwrap(
    api.DELETE("/api/v1/tokens/{token_id}", { params: { path: { token_id: id } }, headers: bearer(token) }),
  );
