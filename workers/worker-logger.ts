import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';
import OpenAI from 'openai';
import { inspect } from 'node:util';
import { firstLine } from '../core/first-line';

/**
 * The log of grove's worker processes (`grove worker`, `grove dev`, the demo): one line per
 * event. A retried activity failure is the common case under a flaky provider, and Temporal's
 * default logger prints ~3 kB for each (metadata, stack, cause); here it is one line saying what
 * failed, on which attempt, why, and whether it will be retried.
 *
 * @example
 * Runtime.install({ logger: groveWorkerLogger('WARN') });
 * // 2026-11-22T21:50:01.123Z [WARN] llmChat for workflow agent-1a2b failed on attempt 3: GroveProviderError: the model endpoint … (503: …); retrying
 */
export function groveWorkerLogger(level: LogLevel = 'WARN'): DefaultLogger {
  return new DefaultLogger(level, (entry) => {
    if (EXPECTED.has(entry.message) || selfAborted(entry)) return;
    process.stderr.write(`${formatLogEntry(entry)}\n`);
  });
}

/**
 * Warnings that say what grove meant to do: a worker's registry queue (`<queue>@<fingerprint>`)
 * and a tool worker serve activities only, so they poll no workflow tasks.
 */
const EXPECTED = new Set(['No workflows registered, not polling for workflow tasks']);

/**
 * A model call grove aborted itself — its run was cancelled, or its worker is stopping and the
 * call goes to another worker — is not a failure. Temporal logs an aborted activity at DEBUG
 * ("completed as cancelled") when the abort is a DOM `AbortError`; the `openai` SDK's
 * abort is its own class, which Temporal logs as a failed attempt (WARN) instead.
 *
 * @example
 * selfAborted({ message: 'Activity failed', meta: { error: new OpenAI.APIUserAbortError() } }); // true
 */
export function selfAborted(entry: Pick<LogEntry, 'message' | 'meta'>): boolean {
  return entry.message === 'Activity failed' && (entry.meta as { error?: unknown } | undefined)?.error instanceof OpenAI.APIUserAbortError;
}

/** One line for a log entry; activity failures get their own short form. */
export function formatLogEntry(entry: Pick<LogEntry, 'level' | 'message' | 'meta' | 'timestampNanos'>): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = (entry.meta ?? {}) as Record<string, unknown>;
  if (entry.message === 'Activity failed' && meta.error instanceof Error) {
    const err = meta.error as Error & { type?: string; nonRetryable?: boolean };
    const what = err.type ? `${err.type}: ${firstLine(err.message, 400)}` : `${err.name}: ${firstLine(err.message, 400)}`;
    const next = err.nonRetryable ? 'not retried' : 'retrying';
    return `${time} [${entry.level}] ${meta.activityType} for workflow ${meta.workflowId} failed on attempt ${meta.attempt}: ${what}; ${next}`;
  }
  const rest = Object.keys(meta).length > 0 ? ` ${inspect(meta, { breakLength: Infinity, depth: 2 })}` : '';
  return `${time} [${entry.level}] ${entry.message}${rest}`;
}
