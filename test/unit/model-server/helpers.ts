/** Shared setup for the model-server unit tests: an in-process server and a real SDK client. */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { startModelServer } from '../../../model-server';
import type { ModelServer, ModelServerOptions } from '../../../model-server';

export interface Harness {
  server: ModelServer;
  client: OpenAI;
}

/** Starts a server and a client with retries off (each test sees every error). */
export async function startHarness(opts: ModelServerOptions = {}): Promise<Harness> {
  const server = await startModelServer(opts);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
  return { server, client };
}

/**
 * One server for a whole test file, reset before each test: returns a getter, since the server
 * starts in `beforeAll`.
 *
 * @example
 * const h = harnessForFile();
 * it('...', async () => { await h().client.chat.completions.create(...) });
 */
export function harnessForFile(opts: ModelServerOptions = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(opts);
  });
  afterAll(async () => {
    await h?.server.close();
  });
  beforeEach(() => h?.server.reset());
  return () => h!;
}

/** The text grove appends as a feedback message (PromptingTools' FeedbackFromEvaluator template). */
export function feedbackMessage(feedback: string): ChatCompletionMessageParam {
  return { role: 'user', content: `### Feedback from Evaluator\n\n${feedback}\n` };
}

/** POSTs raw JSON (or raw text) and returns status, headers and parsed body. */
export async function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

/** Waits until `predicate` holds, polling the event loop (no wall-clock assertions). */
export async function until(predicate: () => boolean, what: string, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for: ${what}`);
}
