import type { ConversationInput } from '../hash/conversation-refs';
import type { ActiveToolsInput, EvaluateInput, EvaluateResult, RunToolInput, RunToolResult, ToolSpec } from '../schemas/agent-activities';
import type { ChatActivityInput, ChatActivityResult } from '../schemas/llm-call';
import type { Message } from '../schemas/messages';
import type { ApprovalAsk, ApprovalOutcome } from '../steering/approvals';
import type { SpanAttributes, TraceSpan } from '../trace-span';

/**
 * Everything a search agent does that is not deterministic bookkeeping. In a workflow each
 * method is an activity (with a one-line summary for the Temporal UI) and `nowMs` is workflow
 * time; in-process (tests, benchmark baselines) they are plain function calls.
 */
export interface AgentPort {
  describeTools(names: string[]): Promise<ToolSpec[]>;
  activeTools(input: ActiveToolsInput, summary: string): Promise<string[]>;
  chat(input: ChatActivityInput, summary: string): Promise<ChatActivityResult>;
  /** `fast`: the tool declared itself quick and idempotent (a workflow may run it as a local activity). */
  runTool(input: RunToolInput, summary: string, opts?: { fast?: boolean }): Promise<RunToolResult>;
  evaluate(input: EvaluateInput, summary: string): Promise<EvaluateResult>;
  resolvePath(input: ConversationInput): Promise<Message[]>;
  /**
   * A person's decision on a call to a tool that requires approval (in a workflow: a durable
   * wait for an `approve` update). Without it such calls are refused.
   */
  approve?(ask: ApprovalAsk): Promise<ApprovalOutcome>;
  nowMs(): number;
  /** Called after each search step (progress reporting: search attributes, details). */
  onStep?(progress: SearchProgress): void;
  /**
   * A span for a step of the search (a node's expansion, a reflection), when the run is traced;
   * absent otherwise. The calls a step makes become the span's children.
   */
  startSpan?(name: string, attributes: SpanAttributes): TraceSpan;
}

export interface SearchProgress {
  nodes: number;
  bestScore: number;
  llmCalls: number;
  tokens: number;
  step: number;
}
