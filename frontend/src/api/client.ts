import createClient from "openapi-fetch";
import type { paths } from "./schema";
import type { ErrorBody, FieldError } from "./types";

/**
 * The one typed client; paths and payloads come from the generated OpenAPI schema.
 * `no-cache`: the browser revalidates its copy each time (a 304 costs the service one query)
 * instead of reusing it for the answer's max-age, so a page refetched after an edit shows it.
 */
export const api = createClient<paths>({ baseUrl: "", cache: "no-cache" });

/** An API failure as the service's error envelope describes it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldError[];

  constructor(status: number, code: string, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** Whether a body is the service's error envelope (a proxy in front of it may answer otherwise). */
function isEnvelope(body: unknown): body is Omit<ErrorBody, "fields"> & Partial<Pick<ErrorBody, "fields">> {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { error?: unknown }).error === "string" &&
    typeof (body as { message?: unknown }).message === "string"
  );
}

/** Turns an error body of any shape into an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  if (isEnvelope(body)) return new ApiError(status, body.error, body.message, body.fields ?? []);
  const text = typeof body === "string" && body.trim() ? body.trim().slice(0, 300) : "";
  return new ApiError(status, `http_${status}`, text || `The service answered HTTP ${status}.`);
}

/** Resolves to the data of a successful answer; throws ApiError otherwise. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (cause) {
    throw new ApiError(0, "network_error", `Could not reach the service (${String(cause)}).`);
  }
  if (result.error !== undefined || !result.response.ok) {
    throw toApiError(result.response.status, result.error);
  }
  return result.data as T;
}
