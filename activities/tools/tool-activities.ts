import { ApplicationFailure } from '@temporalio/common';
import { messageRef } from '../../core/hash/refs';
import type {
  ActiveToolsInput,
  DescribeToolsInput,
  RunToolInput,
  RunToolResult,
  ToolSpec,
} from '../../core/schemas/agent-activities';
import type { Message, ToolCall, ToolMessage } from '../../core/schemas/messages';
import { activityContext, withHeartbeats } from '../activity-context';
import type { MessageStore } from '../store/message-store';
import { callOnce } from '../call-once';
import { currentOwner, resolveConversation } from '../store/resolve-conversation';
import { type AnyToolDefinition, checkToolDefinition, ToolDefinitionError, toolSpec } from './define-tool';
import { invalidArgumentsText, invalidJsonText, notApprovedText, toolFailedText, ToolFailure, unknownToolText } from './tool-errors';
import { defaultFormatOutput, jsonSafeOutput } from './tool-output';
import { secretRedactor } from '../secrets/secret-redactor';
import { fitMessage, type MessageLimits } from '../../core/conversation/fit-message';
import { DEFAULT_POLICY, messageLimits } from '../../core/policy/operator-policy';

export interface ToolActivityOptions {
  /** The tools this worker can run (names must be unique). */
  tools: AnyToolDefinition[];
  store: MessageStore;
  /** How often a running tool heartbeats. Default 2000 ms. */
  heartbeatIntervalMs?: number;
  /** Blanks known secrets out of tool outputs before they are stored (default: the worker's, `secretRedactor`). */
  redact?: (text: string) => string;
  /** What one tool output may carry through Temporal (the operator policy's; default its defaults): a larger one travels cut, whole in the store. */
  limits?: MessageLimits;
}

/**
 * The worker side of the search agents' tools. The workflow only knows tool names; the
 * definitions (code) live on the worker, which describes them, says which are active for a
 * trajectory and runs one call at a time.
 *
 * `groveRunTool` never fails because of what the model wrote: an unknown or unoffered tool,
 * arguments that are not JSON or do not fit the schema, and a tool that throws each become a
 * tool message starting with "Error:" (`isError: true`), so the model can try again and the
 * evaluator can score the mistake. Only infrastructure problems (the message store) and
 * cancellation fail the activity.
 *
 * Every activity resolves its trajectory input even when it does not need the messages: the
 * input may carry writes for the store, and the workflow counts them as stored once the
 * activity succeeds.
 *
 * @example
 * const activities = {
 *   ...createLlmActivities({ config, store }),
 *   ...createToolActivities({ tools: exampleTools, store }),
 * };
 * await Worker.create({ taskQueue: 'grove', activities, workflowBundle, connection });
 */
export function createToolActivities(options: ToolActivityOptions) {
  const { store, heartbeatIntervalMs = 2000 } = options;
  const limits = options.limits ?? messageLimits(DEFAULT_POLICY);
  const redact = options.redact ?? secretRedactor();
  const tools = new Map<string, AnyToolDefinition>();
  for (const tool of options.tools) {
    checkToolDefinition(tool);
    if (tools.has(tool.name)) throw new ToolDefinitionError(`two tools are named ${JSON.stringify(tool.name)}; tool names must be unique on a worker`);
    tools.set(tool.name, tool);
  }

  function known(names: string[]): AnyToolDefinition[] {
    return names.map((name) => {
      const tool = tools.get(name);
      if (!tool) {
        throw ApplicationFailure.nonRetryable(
          `unknown tool ${JSON.stringify(name)}: this worker has ${tools.size > 0 ? [...tools.keys()].join(', ') : 'no tools'}`,
          ToolFailure.UnknownTool,
        );
      }
      return tool;
    });
  }

  async function groveDescribeTools(input: DescribeToolsInput): Promise<ToolSpec[]> {
    return known(input.names).map(toolSpec);
  }

  async function groveActiveTools(input: ActiveToolsInput): Promise<string[]> {
    const asked = known(input.names);
    const trajectory = await resolveConversation(store, input.trajectory);
    const active: string[] = [];
    for (const tool of asked) {
      if (!tool.isActive || (await tool.isActive(structuredClone(trajectory)))) active.push(tool.name);
    }
    return active;
  }

  async function groveRunTool(input: RunToolInput): Promise<RunToolResult> {
    const trajectory = await resolveConversation(store, input.trajectory);
    const { call } = input;
    // At most once per scheduled activity: a tool that ran is not run again after a worker crash.
    const outcome = await callOnce(store, 'groveRunTool', input, () => runCall(call, input.offered, trajectory, input.approval));
    const { message, whole } = fitMessage<ToolMessage>(
      outcome.rawOutput === undefined
        ? { role: 'tool', tool_call_id: call.id, content: outcome.content }
        : { role: 'tool', tool_call_id: call.id, content: outcome.content, rawOutput: outcome.rawOutput },
      limits,
    );
    const ref = messageRef(message);
    await store.put({ [ref]: message, ...(whole ? { [message.cut!.ref]: whole } : {}) }, currentOwner());
    return { message, ref, isError: outcome.isError };
  }

  async function runCall(call: ToolCall, offered: string[], trajectory: Message[], approval: RunToolInput['approval']): Promise<Outcome> {
    const name = call.function.name;
    const tool = offered.includes(name) ? tools.get(name) : undefined;
    if (!tool) return failed(unknownToolText(name, offered.filter((n) => tools.has(n))));
    // The workflow waits for a person's decision; this is the tool's own guard, whatever workflow calls it.
    if (tool.requiresApproval && !approval) return failed(notApprovedText(name));

    let json: unknown;
    const text = call.function.arguments;
    try {
      json = text.trim() === '' ? {} : JSON.parse(text); // some endpoints send "" for a call without arguments
    } catch (err) {
      return failed(invalidJsonText(name, err));
    }
    let parsed: Awaited<ReturnType<typeof tool.parameters.safeParseAsync>>;
    try {
      parsed = await tool.parameters.safeParseAsync(json);
    } catch (err) {
      return failed(toolFailedText(name, err)); // a refinement or transform of the tool's own schema threw
    }
    if (!parsed.success) return failed(invalidArgumentsText(name, parsed.error));

    const signal = activityContext()?.cancellationSignal;
    return withHeartbeats(heartbeatIntervalMs, { tool: name, callId: call.id }, async () => {
      try {
        const output = await tool.run(parsed.data, { trajectory: structuredClone(trajectory), signal });
        const content = tool.formatOutput ? String(tool.formatOutput(output)) : defaultFormatOutput(output);
        return { content: redact(content), rawOutput: redactJson(jsonSafeOutput(output), redact), isError: false };
      } catch (err) {
        // A cancelled activity must end as cancelled, not as a tool message the search goes on with.
        if (signal?.aborted) throw signal.reason ?? err;
        return failed(redact(toolFailedText(name, err)));
      }
    });
  }

  return { groveDescribeTools, groveActiveTools, groveRunTool };
}

export type ToolActivities = ReturnType<typeof createToolActivities>;

interface Outcome {
  content: string;
  rawOutput?: unknown;
  isError: boolean;
}

function failed(content: string): Outcome {
  return { content, isError: true };
}

function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  const clean = redact(text);
  return clean === text ? value : JSON.parse(clean);
}
