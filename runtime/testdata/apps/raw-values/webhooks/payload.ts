import { APIError, RawRequest } from "encore.dev/api";

/**
 * The JSON object a webhook delivers: read from the raw request as it streams in (Encore
 * hands raw handlers its own RawRequest, a stream rather than Node's IncomingMessage), or
 * from text already at hand, such as a delivery replayed from a log.
 */
export async function payloadOf(source: unknown): Promise<Record<string, unknown>> {
  let text: string;
  if (source instanceof RawRequest) text = await bodyText(source);
  else if (typeof source === "string") text = source;
  else throw APIError.internal("a payload is read from a raw request or from text");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw APIError.invalidArgument("the payload is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw APIError.invalidArgument("the payload must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}

async function bodyText(req: RawRequest): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
