import type http from 'node:http';
import type { HttpError } from './openai-errors';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** OpenAI's answer to a body that is not JSON, word for word. */
export const UNPARSABLE_JSON =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library " +
  'correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)';

/** A request body over 64 MiB: the server answers 413 instead of buffering it. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/** The whole request body as text, refused past 64 MiB. */
export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a JSON answer, unless the response has already begun or its client has gone. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends an error in OpenAI's envelope. */
export function sendError(res: http.ServerResponse, e: HttpError): void {
  sendJson(res, e.status, { error: e.error }, e.headers);
}

/** JSON.parse that says whether it parsed instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
