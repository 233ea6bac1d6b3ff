import { addUsage, ZERO_USAGE } from '../budget';
import { renderTemplate } from '../conversation/template';
import { FEEDBACK_TEMPLATE } from '../feedback';
import type { ToolSpec } from '../schemas/agent-activities';
import { DEFAULT_SYSTEM_PROMPT } from '../schemas/prompt-input';
import { userMessage, type Usage } from '../schemas/messages';
import type { SessionOptions } from './session-input';
import type { HumanAction } from '../schemas/steering';
import { ActionLog } from '../steering/action-log';
import { SessionTree, type SessionNode, type SessionTreeJSON } from './message-tree';

export interface SessionCounters {
  turns: number;
  modelCalls: number;
  toolRuns: number;
  /** Answers retried after a failed check. */
  checkRetries: number;
  rewinds: number;
  feedback: number;
  handovers: number;
}

/** Feedback that arrived while a turn was running: the turn adds it before its next model call. */
export interface QueuedFeedback {
  targetId: number;
  text: string;
  by: string;
  at: number;
}

/** What a session carries through continue-as-new (it hands over only between turns). */
export interface SessionHandover {
  tree: SessionTreeJSON;
  specs: ToolSpec[];
  counters: SessionCounters;
  usage: Usage;
  actions: HumanAction[];
  startedAtMs: number;
}

/**
 * Everything a durable conversation keeps: its message tree, the tools it may call, counters,
 * spend, the audit log of human actions, and what people asked for while a turn was running
 * (feedback for the next model call, a stop). Pure; the workflow drives it.
 */
export class SessionState {
  readonly feedbackQueue: QueuedFeedback[] = [];
  stop?: { by: string; reason?: string };
  closed?: { by: string; at: number; reason?: string };

  constructor(
    readonly tree: SessionTree,
    readonly specs: ToolSpec[],
    public counters: SessionCounters,
    public usage: Usage,
    readonly actions: ActionLog,
    readonly startedAtMs: number,
  ) {}

  static create(options: Pick<SessionOptions, 'system' | 'messages'>, specs: ToolSpec[], nowMs: number): SessionState {
    const system = options.system === undefined ? DEFAULT_SYSTEM_PROMPT : options.system;
    const initial = [...(system === null ? [] : [{ role: 'system' as const, content: system }]), ...(options.messages ?? [])];
    const counters: SessionCounters = { turns: 0, modelCalls: 0, toolRuns: 0, checkRetries: 0, rewinds: 0, feedback: 0, handovers: 0 };
    return new SessionState(SessionTree.create(initial, nowMs), specs, counters, ZERO_USAGE, new ActionLog(), nowMs);
  }

  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  /**
   * The assistant message feedback is about: `nodeId` (a live assistant message), else the
   * latest one. Returns why not when there is none or the id does not name one.
   */
  feedbackTarget(nodeId: number | undefined): { ok: true; node: SessionNode } | { ok: false; reason: string } {
    const assistants = this.tree.assistantIds();
    if (nodeId === undefined) {
      if (assistants.length === 0) return { ok: false, reason: 'there is no assistant message to give feedback on yet' };
      return { ok: true, node: this.tree.node(assistants[assistants.length - 1]) };
    }
    const resolved = this.tree.resolveTarget({ messageId: nodeId });
    if (!resolved.ok) return { ok: false, reason: resolved.reason.replace('only assistant messages can be rewound', 'feedback is about assistant messages') };
    return { ok: true, node: this.tree.node(resolved.targetId) };
  }

  /**
   * Adds a person's feedback to the conversation as a user message in grove's feedback format,
   * saying which answer it is about when that is not the latest one.
   */
  addFeedback(feedback: QueuedFeedback): SessionNode {
    const assistants = this.tree.assistantIds();
    const latest = assistants[assistants.length - 1];
    const target = this.tree.node(feedback.targetId);
    const about = feedback.targetId === latest ? '' : `About your earlier answer "${target.preview}": `;
    const message = userMessage(renderTemplate(FEEDBACK_TEMPLATE, { feedback: `${about}${feedback.text}` }));
    this.counters.feedback += 1;
    return this.tree.append(message, { turn: this.tree.turn, at: feedback.at, by: feedback.by, kind: 'feedback' });
  }

  handoverJSON(): SessionHandover {
    return {
      tree: this.tree.handoverJSON(),
      specs: this.specs,
      counters: { ...this.counters },
      usage: this.usage,
      actions: this.actions.toJSON(),
      startedAtMs: this.startedAtMs,
    };
  }

  static fromJSON(json: SessionHandover): SessionState {
    return new SessionState(SessionTree.fromJSON(json.tree), json.specs, { ...json.counters }, json.usage, new ActionLog(json.actions), json.startedAtMs);
  }
}
