// Requests to the dashboard's own API (runtime/internal/dashboard/api.ts), same origin.
import { lockOut } from "./live.ts";

/** An error the API answered in Encore's format, or one made here in the same shape. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status; 0 when the request never got an answer. */
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** GET, or POST with a JSON body; answers the parsed JSON or throws an ApiError. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, body === undefined ? undefined : {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError("unavailable", "the dashboard did not answer: the app may be restarting", 0);
  }
  const text = await response.text();
  if (response.status === 401) lockOut(); // this page's access is not this run's: the page says what to do
  if (!response.ok) throw errorOf(response, text);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError("internal", `${path} answered ${response.status} with a body that is not JSON`, response.status);
  }
}

function errorOf(response: Response, text: string): ApiError {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === "string" && typeof parsed.message === "string") {
      return new ApiError(parsed.code, parsed.message, response.status);
    }
  } catch {
    // Not Encore's format: the status and the start of the body below say what happened.
  }
  const excerpt = text.trim().slice(0, 300);
  return new ApiError("unknown", `HTTP ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`, response.status);
}

/** Anything thrown, as an ApiError, so every failure is shown the same way. */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError("internal", err instanceof Error ? err.message : String(err), 0);
}

/** One path segment, encoded. */
export const seg = encodeURIComponent;
