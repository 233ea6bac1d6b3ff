import type { Message } from '../schemas/messages';
import type { AICall } from './ai-call';

/**
 * The active sample's output: the answer text for text calls (`''` when none), the parsed
 * value for structured calls (`undefined` when the answer is malformed — see `call.outputError`).
 *
 * @example
 * await airetry((x) => lastOutput(x) === lastOutput(x).toLowerCase(), out, 'You must answer in lowercase.');
 */
export function lastOutput(call: AICall<string>): string;
export function lastOutput<T>(call: AICall<T>): T | undefined;
export function lastOutput<T>(call: AICall<T>): T | string | undefined {
  const output = call.output;
  if (output === undefined && (call.kind === 'generate' || call.kind === 'scan')) return '';
  return output;
}

/** The last message of the active sample's conversation. */
export function lastMessage<T>(call: AICall<T>): Message | undefined {
  return call.lastMessage;
}
