import { ApplicationFailure } from '@temporalio/common';

/**
 * Stable failure types of MCP tool calls. Only what the worker cannot fix by answering the model
 * fails the activity — a server that cannot be started or reached, dies, or does not answer in
 * time — and Temporal's retry policy decides what happens next (the next attempt starts the
 * server again). Whatever the server answers, an error included, becomes a tool message.
 */
export const McpFailure = {
  /** The server could not be started or reached, or closed the connection during the call. Retryable. */
  Unavailable: 'GroveMcpUnavailable',
  /** The server did not answer within the server's `timeoutMs` (or `startTimeoutMs` while starting). Retryable. */
  Timeout: 'GroveMcpTimeout',
} as const;

/**
 * A retryable failure of one MCP server, naming it; `details` carries the server name so a
 * caller can tell which server failed without parsing the message.
 *
 * @example
 * throw mcpFailure('Timeout', 'everything', 'tools/call echo did not answer within 60000 ms');
 */
export function mcpFailure(kind: keyof typeof McpFailure, server: string, what: string, cause?: unknown): ApplicationFailure {
  return ApplicationFailure.create({
    message: `MCP server "${server}": ${what}`,
    type: McpFailure[kind],
    nonRetryable: false,
    details: [{ server }],
    cause: cause instanceof Error ? cause : undefined,
  });
}
