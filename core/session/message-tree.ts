import { messagePreview } from '../conversation/preview';
import { InvalidArgumentError } from '../errors';
import { ConversationRefs } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import { assistantMessage, type AssistantMessage, type Message } from '../schemas/messages';

export type SessionRole = Message['role'];

/**
 * What wrote a message besides the user and the model: `feedback` (a check's or a person's
 * "this is wrong because…"), `replacement` (a rewind's new content), `correction` (the answer
 * to a rewind the model asked for that could not be done), `rejection` (a tool call a person
 * or the approval timeout refused).
 */
export type SessionMessageKind = 'feedback' | 'replacement' | 'correction' | 'rejection' | 'dropped';

/**
 * One message of a session: the node of its message tree. The message itself lives in the
 * message store (and in the session's memory while it is on the live conversation); the node
 * keeps its content address, the address of the conversation up to it, and a preview.
 */
export interface SessionNode {
  id: number;
  /** The message before it (null for the first one). */
  parentId: number | null;
  role: SessionRole;
  /** Content address of the message. */
  ref: Ref;
  /** Content address of the conversation up to and including this message (a path record). */
  path: Ref;
  /** The message on one line, at most 80 characters (tool calls by name). */
  preview: string;
  /** The turn it belongs to: 0 for the initial messages, then one per message sent. */
  turn: number;
  /** Pruned by a rewind: kept for audit, no longer part of the conversation. */
  abandoned: boolean;
  /** Workflow time (ms since the epoch) when it entered the tree. */
  at: number;
  /** Who wrote it, when not the model: the sender of a user message, the person who rewound or gave feedback. */
  by?: string;
  kind?: SessionMessageKind;
  /** For a replacement: the rewind (1-based) that wrote it. */
  rewind?: number;
  /** For an abandoned message: the rewind (1-based) that pruned it. */
  abandonedBy?: number;
}

/** One rewind, as the tree records it (who, when, what it replaced and pruned). */
export interface RewindRecord {
  /** 1-based, in order. */
  seq: number;
  at: number;
  /** Who asked: a person or service (`by` of the update), or `model` for the rewind tool. */
  by: string;
  source: 'update' | 'tool';
  /** Which assistant message, 1-based from the start of the live conversation at the time. */
  n: number;
  /** The replaced message's node id, and its replacement's. */
  targetId: number;
  replacementId: number;
  /** How many messages it abandoned (the target and everything after it). */
  abandoned: number;
}

/** Where a rewind goes: the nth assistant message (negative counts back from the latest), or a node id. */
export type RewindTarget = { n: number } | { messageId: number };

export type ResolvedTarget = { ok: true; targetId: number; n: number } | { ok: false; reason: string };

/** The `tree` query's shape (documented in docs/steering.md; the browser tree viewer draws it). */
export interface SessionTreeView {
  kind: 'session';
  v: 1;
  /** The last message of the live conversation (null before the first message). */
  head: number | null;
  nodes: Omit<SessionNode, 'path'>[];
  rewinds: RewindRecord[];
}

export interface SessionTreeJSON {
  nodes: SessionNode[];
  head: number | null;
  rewinds: RewindRecord[];
  refs: ReturnType<ConversationRefs['toJSON']>;
}

const PREVIEW_CHARS = 80;

/**
 * The message tree of a durable conversation: every message ever sent or received, linked to
 * the one before it, with a head that ends the live conversation. Messages are only ever
 * added; a rewind moves the head to a new branch (the replacement) and flags everything it
 * pruned as abandoned, which stays in the tree for audit (langroid's RewindTool deletes them).
 * Pure and deterministic, so it is workflow state; its conversation refs give activities
 * references instead of conversations.
 *
 * @example
 * const tree = SessionTree.create([systemMessage('Be brief')], 0);
 * tree.append(userMessage('Hi'), { turn: 1, at: 1, by: 'ana' });
 * tree.append(assistantMessage('Hello!'), { turn: 1, at: 2 });
 * tree.rewind({ n: 1 }, 'Hi there!', { at: 3, by: 'ana', source: 'update' });
 * tree.conversation(); // [system, user 'Hi', assistant 'Hi there!']
 */
export class SessionTree {
  readonly refs: ConversationRefs;
  private readonly nodes: SessionNode[];
  private readonly children = new Map<number, number[]>();
  private headId: number | null;
  private readonly rewindLog: RewindRecord[];

  private constructor(nodes: SessionNode[], head: number | null, rewinds: RewindRecord[], refs: ConversationRefs) {
    this.nodes = nodes;
    this.headId = head;
    this.rewindLog = rewinds;
    this.refs = refs;
    for (const node of nodes) if (node.parentId !== null) this.childList(node.parentId).push(node.id);
  }

  static create(initial: Message[], at: number): SessionTree {
    const tree = new SessionTree([], null, [], new ConversationRefs());
    for (const message of initial) tree.append(message, { turn: 0, at });
    return tree;
  }

  get head(): number | null {
    return this.headId;
  }

  get size(): number {
    return this.nodes.length;
  }

  get rewinds(): readonly RewindRecord[] {
    return this.rewindLog;
  }

  /** The path ref of the live conversation (what a model call gets). */
  get headPath(): Ref | null {
    return this.headId === null ? null : this.nodes[this.headId].path;
  }

  /** The turn of the last live message (0 before any was sent). */
  get turn(): number {
    return this.headId === null ? 0 : this.nodes[this.headId].turn;
  }

  node(id: number): SessionNode {
    const node = this.nodes[id];
    if (!node) throw new InvalidArgumentError(`no message ${id} (the session has ${this.nodes.length})`);
    return node;
  }

  /** Adds a message after the head and makes it the head. */
  append(message: Message, meta: { turn: number; at: number; by?: string; kind?: SessionMessageKind; rewind?: number }): SessionNode {
    const parent = this.headId === null ? null : this.nodes[this.headId];
    return this.add(parent, message, meta);
  }

  /** The live conversation's nodes, first to last. */
  liveNodes(): SessionNode[] {
    const out: SessionNode[] = [];
    for (let id = this.headId; id !== null; id = this.nodes[id].parentId) out.push(this.nodes[id]);
    return out.reverse();
  }

  /** The live conversation's messages, first to last. */
  conversation(): Message[] {
    return this.liveNodes().map((n) => this.messageOf(n));
  }

  /** The message of a node, when this session still holds it (abandoned ones may only be in the store after a handover). */
  message(id: number): Message | undefined {
    return this.refs.message(this.node(id).ref);
  }

  /**
   * The live assistant messages (before node `before`, when given): what `n` counts. langroid
   * counts the nth assistant message 1-based from the start (`nth_message_idx_with_role`).
   */
  assistantIds(opts: { before?: number } = {}): number[] {
    const ids: number[] = [];
    for (const node of this.liveNodes()) {
      if (node.id === opts.before) break;
      if (node.role === 'assistant') ids.push(node.id);
    }
    return ids;
  }

  /**
   * Which message a rewind would replace, or why it cannot: `n` counts the live assistant
   * messages from 1 (the first; langroid's semantics) or back from -1 (the latest, the "nth
   * previous" of langroid's docstring); a `messageId` must be a live assistant message.
   *
   * @example
   * tree.resolveTarget({ n: 5 }); // { ok: false, reason: 'there are only 2 assistant messages (n must be 1 to 2, or -1 to -2 counting back from the latest)' }
   */
  resolveTarget(target: RewindTarget, opts: { before?: number } = {}): ResolvedTarget {
    const ids = this.assistantIds(opts);
    const count = ids.length;
    if ('n' in target) {
      const { n } = target;
      if (!Number.isInteger(n)) return { ok: false, reason: `n must be a whole number, got ${n}` };
      if (count === 0) return { ok: false, reason: 'there is no assistant message to rewind to yet' };
      const range = `n must be 1 to ${count}, or -1 to -${count} counting back from the latest`;
      if (n === 0) return { ok: false, reason: `n counts from 1 (the first assistant message); ${range}` };
      if (n > count) return { ok: false, reason: `there ${count === 1 ? 'is only 1 assistant message' : `are only ${count} assistant messages`} (${range})` };
      if (n < -count) return { ok: false, reason: `going back ${-n} assistant messages goes past the start of the conversation, which has ${count} (${range})` };
      const index = n > 0 ? n - 1 : count + n;
      return { ok: true, targetId: ids[index], n: index + 1 };
    }
    const { messageId } = target;
    const node = this.nodes[messageId];
    if (!node) return { ok: false, reason: `there is no message ${messageId} (the session has ${this.nodes.length}, ids 0 to ${this.nodes.length - 1})` };
    if (node.abandoned) {
      return { ok: false, reason: `message ${messageId} is on an abandoned branch (rewind ${node.abandonedBy} pruned it): rewind a message of the live conversation` };
    }
    const index = ids.indexOf(messageId);
    if (node.role !== 'assistant' || index < 0) {
      return {
        ok: false,
        reason:
          node.role === 'assistant'
            ? `message ${messageId} is the message asking for the rewind`
            : `message ${messageId} is a ${node.role} message: only assistant messages can be rewound (to change a user message, rewind the assistant message before it and send again)`,
      };
    }
    return { ok: true, targetId: messageId, n: index + 1 };
  }

  /**
   * Rewinds to an assistant message and replaces it with `content`: the message and everything
   * after it (and every branch that grew from them) is abandoned, and the replacement becomes
   * the head. Nothing already in the kept prefix is sent again. Throws when the target cannot be
   * rewound (see {@link resolveTarget}).
   *
   * @example
   * const { replacement } = tree.rewind({ n: -1 }, 'A better answer.', { at, by: 'ana', source: 'update' });
   */
  rewind(
    target: RewindTarget,
    content: string,
    meta: { at: number; by: string; source: RewindRecord['source']; before?: number },
  ): { record: RewindRecord; replacement: SessionNode } {
    const resolved = this.resolveTarget(target, { before: meta.before });
    if (!resolved.ok) throw new InvalidArgumentError(`cannot rewind: ${resolved.reason}`);
    const target_ = this.nodes[resolved.targetId];
    const seq = this.rewindLog.length + 1;
    let abandoned = 0;
    const stack = [target_.id];
    while (stack.length > 0) {
      const node = this.nodes[stack.pop()!];
      if (!node.abandoned) {
        node.abandoned = true;
        node.abandonedBy = seq;
        abandoned++;
      }
      stack.push(...(this.children.get(node.id) ?? []));
    }
    const parent = target_.parentId === null ? null : this.nodes[target_.parentId];
    const replacement = this.add(parent, assistantMessage(content), { turn: target_.turn, at: meta.at, by: meta.by, kind: 'replacement', rewind: seq });
    const record: RewindRecord = { seq, at: meta.at, by: meta.by, source: meta.source, n: resolved.n, targetId: target_.id, replacementId: replacement.id, abandoned };
    this.rewindLog.push(record);
    return { record, replacement };
  }

  /** The `tree` query: every message with its parent, role, preview and whether it was abandoned. */
  view(): SessionTreeView {
    return { kind: 'session', v: 1, head: this.headId, nodes: this.nodes.map(({ path: _p, ...rest }) => ({ ...rest })), rewinds: [...this.rewindLog] };
  }

  /**
   * The state to hand over through continue-as-new: every node (refs and previews), and the
   * messages of the live conversation only — abandoned ones stay in the store and in the
   * history of the run that saw them.
   */
  handoverJSON(): SessionTreeJSON {
    const head = this.headPath;
    return { nodes: this.nodes.map((n) => ({ ...n })), head: this.headId, rewinds: [...this.rewindLog], refs: this.refs.restrictedTo(head ? [head] : []).toJSON() };
  }

  static fromJSON(json: SessionTreeJSON): SessionTree {
    return new SessionTree(
      json.nodes.map((n) => ({ ...n })),
      json.head,
      [...json.rewinds],
      ConversationRefs.fromJSON(json.refs),
    );
  }

  private add(parent: SessionNode | null, message: Message, meta: { turn: number; at: number; by?: string; kind?: SessionMessageKind; rewind?: number }): SessionNode {
    const path = this.refs.addPath(parent?.path ?? null, undefined, [message]);
    const node: SessionNode = {
      id: this.nodes.length,
      parentId: parent?.id ?? null,
      role: message.role,
      ref: this.refs.record(path)!.add[0],
      path,
      preview: messagePreview(message, PREVIEW_CHARS),
      turn: meta.turn,
      abandoned: false,
      at: meta.at,
      ...(meta.by !== undefined ? { by: meta.by } : {}),
      ...(meta.kind !== undefined ? { kind: meta.kind } : {}),
      ...(meta.rewind !== undefined ? { rewind: meta.rewind } : {}),
    };
    this.nodes.push(node);
    if (parent) this.childList(parent.id).push(node.id);
    this.headId = node.id;
    return node;
  }

  private messageOf(node: SessionNode): Message {
    const message = this.refs.message(node.ref);
    if (!message) throw new Error(`session message ${node.id} is not held in memory`);
    return message;
  }

  private childList(id: number): number[] {
    let list = this.children.get(id);
    if (!list) this.children.set(id, (list = []));
    return list;
  }
}

/** The latest assistant message of the live conversation with text, if any (a turn's best answer so far). */
export function lastAssistantText(tree: SessionTree): { id: number; message: AssistantMessage } | undefined {
  const nodes = tree.liveNodes();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const message = tree.message(nodes[i].id);
    if (message?.role === 'assistant' && message.content) return { id: nodes[i].id, message };
  }
  return undefined;
}
