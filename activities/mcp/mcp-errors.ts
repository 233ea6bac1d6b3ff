import { ApplicationFailure } from '@temporalio/common';
import { McpFailure } from '../../core/failures';

export { McpFailure } from '../../core/failures';


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
