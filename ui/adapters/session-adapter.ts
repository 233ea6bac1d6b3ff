import type { SessionTreeView } from '../../core/session/message-tree';
import type { Message } from '../../core/schemas/messages';
import type { NodeParts, NodeStatus, ViewNode } from '../model/view-tree';
import { facts, type RunAdapter, type RunReader, type RunSnapshot } from './run-adapter';

type SessionNodeView = SessionTreeView['nodes'][number];

/**
 * Durable conversations (`session`): the message tree from the `tree` query (live) or the
 * closed session's result. One node per message; the live conversation runs from the first
 * message to the head, and what a rewind pruned stays drawn as abandoned branches. A node's
 * message comes from the message store by its content address.
 */
export const sessionAdapter: RunAdapter = {
  matches: (kind) => kind === 'session',

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    const result = reader.live ? undefined : ((await reader.result()) as { tree?: SessionTreeView; closedBy?: string; turns?: number } | undefined);
    const view = result?.tree ?? ((await reader.query('tree')) as SessionTreeView);
    const byId = new Map(view.nodes.map((n) => [n.id, n]));
    const hasChildren = new Set(view.nodes.map((n) => n.parentId).filter((p): p is number => p !== null));
    const live = new Set<number>();
    for (let id = view.head; id !== null; id = byId.get(id)?.parentId ?? null) live.add(id);
    const status = (node: SessionNodeView): NodeStatus => {
      if (node.parentId === null) return 'root';
      if (node.abandoned) return 'abandoned';
      if (node.kind === 'rejection' || node.kind === 'correction' || node.kind === 'dropped') return 'failed';
      if (hasChildren.has(node.id)) return 'expanded';
      return reader.live ? 'open' : 'terminal';
    };
    const nodes: ViewNode[] = [...view.nodes]
      .sort((a, b) => a.id - b.id)
      .map((node) => ({ id: node.id, parent: node.parentId, label: `${node.role}: ${node.preview}`, status: status(node), visits: 0 }));
    const bestPath = [...live].reverse();
    return {
      tree: { nodes, bestPath },
      facts: facts([
        ['messages', view.nodes.length],
        ['live conversation', live.size],
        ['abandoned', view.nodes.filter((n) => n.abandoned).length || undefined],
        ['rewinds', view.rewinds.length || undefined],
        ...view.rewinds.map((r): [string, string] => [`rewind ${r.seq}`, `assistant message ${r.n} by ${r.by} (${r.source}): ${r.abandoned} messages abandoned`]),
        ['turns', result?.turns],
        ['closed by', result?.closedBy],
      ]),
      parts: async (ids, store) =>
        new Map(
          await Promise.all(
            ids.map(async (id): Promise<[number, NodeParts]> => {
              const node = byId.get(id)!;
              const parts: NodeParts = {
                facts: facts([
                  ['message', id],
                  ['role', node.role],
                  ['status', status(node)],
                  ['turn', node.turn],
                  ['by', node.by],
                  ['kind', node.kind],
                  ['written by rewind', node.rewind],
                  ['abandoned by rewind', node.abandonedBy],
                  ['at', new Date(node.at).toISOString()],
                ]),
              };
              const message = (await store.get(node.ref)) as Message | undefined;
              if (message) parts.delta = { add: [message] };
              else parts.note = `the message store (${store.describe()}) has no message ${node.ref} (yet)`;
              return [id, parts];
            }),
          ),
        ),
    };
  },
};
