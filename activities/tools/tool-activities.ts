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
import { memoUntilFailure } from '../memo-until-failure';
import { currentOwner, resolveConversation } from '../store/resolve-conversation';
import { type AnyToolDefinition, checkToolDefinition, ToolDefinitionError, toolSpec } from './define-tool';
import { invalidArgumentsText, invalidJsonText, notApprovedText, toolFailedText, unknownToolText } from './tool-errors';
import { ToolFailure } from '../../core/failures';
import { cutOutput, DEFAULT_MAX_OUTPUT_CHARS, defaultFormatOutput, jsonSafeOutput } from './tool-output';
import { secretRedactor } from '../secrets/secret-redactor';
import type { StepTelemetry } from '../telemetry/step-telemetry';

/** Tools that are known only once something was asked (a worker's MCP servers list theirs when they start). */
export interface ToolSource {
  tools(): Promise<AnyToolDefinition[]>;
}
import { fitMessage, type MessageLimits } from '../../core/conversation/fit-message';
import { jsonBytes } from '../../core/payload-limits';
import { DEFAULT_POLICY, messageLimits } from '../../core/policy/operator-policy';

export interface ToolActivityOptions {
  /** The tools this worker can run (names must be unique). */
  tools: AnyToolDefinition[];
  /** More tools, in the same registry (names unique across all): listed once, on first use or when the worker starts. */
  sources?: ToolSource[];
  store: MessageStore;
  /** How often a running tool heartbeats. Default 2000 ms. */
  heartbeatIntervalMs?: number;
  /** Blanks known secrets out of tool outputs before they are stored (default: the worker's, `secretRedactor`). */
  redact?: (text: string) => string;
  /** Longest tool output kept, in characters, for what the model sees and for `rawOutput` each (default 100,000): results travel through workflow history. */
  maxOutputChars?: number;
  /** An `execute_tool` span per tool run, when the worker exports telemetry. */
  telemetry?: StepTelemetry;
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
 * cancellation fail the activity — and an `ApplicationFailure` a tool throws on purpose (an MCP
 * server that died or timed out, a flaky service the tool wants retried), which Temporal then
 * retries by the run's policy.
 *
 * An output is redacted (known secrets blanked), then cut to `maxOutputChars` with a note saying
 * so (a `rawOutput` whose JSON is longer than that is left out of the message), or to what a
 * message may carry through Temporal; the whole output is kept in the store under `cut.ref`.
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
  const { store, heartbeatIntervalMs = 2000, maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS } = options;
  const limits = options.limits ?? messageLimits(DEFAULT_POLICY);
  const redact = options.redact ?? secretRedactor();
  const own = toolRegistry(options.tools);
  /** Every tool of the worker: its own and its sources', listed once (a failed listing is tried again next time). */
  const allTools = options.sources?.length
    ? memoUntilFailure(async () => {
        const listed = await Promise.all(options.sources!.map((source) => source.tools()));
        return toolRegistry([...own.values(), ...listed.flat()]);
      })
    : async () => own;

  async function known(names: string[]): Promise<AnyToolDefinition[]> {
    const tools = await allTools();
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
    return (await known(input.names)).map(toolSpec);
  }

  async function groveActiveTools(input: ActiveToolsInput): Promise<string[]> {
    const asked = await known(input.names);
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
    const tools = await allTools();
    const run = () => runCall(tools, call, input.offered, trajectory, input.approval);
    const outcome = await callOnce(store, 'groveRunTool', input, () =>
      options.telemetry
        ? options.telemetry.toolRun({ name: call.function.name, callId: call.id, description: tools.get(call.function.name)?.description, arguments: call.function.arguments }, run, (o) => o)
        : run(),
    );
    const { message, whole } = fitToolOutput(
      outcome.rawOutput === undefined
        ? { role: 'tool', tool_call_id: call.id, content: outcome.content }
        : { role: 'tool', tool_call_id: call.id, content: outcome.content, rawOutput: outcome.rawOutput },
      limits,
      maxOutputChars,
    );
    const ref = messageRef(message);
    await store.put({ [ref]: message, ...(whole ? { [message.cut!.ref]: whole } : {}) }, currentOwner());
    return { message, ref, isError: outcome.isError };
  }

  async function runCall(tools: Map<string, AnyToolDefinition>, call: ToolCall, offered: string[], trajectory: Message[], approval: RunToolInput['approval']): Promise<Outcome> {
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
        const raw = redactJson(jsonSafeOutput(tool.rawOutput ? tool.rawOutput(output) : output), redact);
        return { content: redact(content), rawOutput: raw, isError: false };
      } catch (err) {
        // A cancelled activity must end as cancelled, not as a tool message the search goes on with.
        if (signal?.aborted) throw signal.reason ?? err;
        // A failure the tool raises on purpose is for Temporal's retry policy (the worker's interceptor redacts it).
        if (err instanceof ApplicationFailure) throw err;
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

/**
 * The tools of a worker by name, each checked (`checkToolDefinition`); a name used twice throws
 * a {@link ToolDefinitionError} naming where each comes from.
 *
 * @example
 * toolRegistry([multiply, ...await mcp.tools()]).get('everything__echo')
 */
export function toolRegistry(tools: AnyToolDefinition[]): Map<string, AnyToolDefinition> {
  const registry = new Map<string, AnyToolDefinition>();
  for (const tool of tools) addTool(registry, tool);
  return registry;
}

function addTool(tools: Map<string, AnyToolDefinition>, tool: AnyToolDefinition): void {
  checkToolDefinition(tool);
  const other = tools.get(tool.name);
  if (other) {
    const origin = [other, tool].map(toolOrigin).filter(Boolean);
    throw new ToolDefinitionError(`two tools are named ${JSON.stringify(tool.name)}${origin.length ? ` (${origin.join(', ')})` : ''}; tool names must be unique on a worker`);
  }
  tools.set(tool.name, tool);
}

/** Where a tool comes from, when that is not the worker's own code. */
function toolOrigin(tool: AnyToolDefinition): string | undefined {
  const mcp = (tool as { mcp?: { server: string; tool: string } }).mcp;
  return mcp ? `one is tool ${JSON.stringify(mcp.tool)} of MCP server ${JSON.stringify(mcp.server)}` : undefined;
}

/**
 * A tool output as it travels: over what a message may carry through Temporal, cut by
 * `fitMessage`; else over `maxOutputChars` (what the model is shown), its text cut to that many
 * characters with a note, and its `rawOutput` left out when its JSON is longer. Either way the
 * whole output is kept in the store under `cut.ref`: nothing a tool returns is lost.
 */
function fitToolOutput(message: ToolMessage, limits: MessageLimits, maxOutputChars: number): { message: ToolMessage; whole?: ToolMessage } {
  const fitted = fitMessage(message, limits);
  if (fitted.whole) return fitted;
  const longText = message.content.length > maxOutputChars;
  const longRaw = !fits(message.rawOutput, maxOutputChars);
  if (!longText && !longRaw) return fitted;
  const ref = messageRef(message);
  const { rawOutput: _left, ...rest } = message;
  const content = longText ? cutOutput(rest.content, maxOutputChars, ref) : rest.content;
  return { message: { ...rest, content, cut: { ref, bytes: jsonBytes(message), ...(longText ? { keptChars: maxOutputChars } : {}) } }, whole: message };
}

function fits(value: unknown, maxChars: number): boolean {
  return value === undefined || (JSON.stringify(value)?.length ?? 0) <= maxChars;
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
