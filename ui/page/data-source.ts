import type { RunEvent } from '../../core/runs/run-events';
import { nodeDetail, pathTo, type NodeDetail, type NodeParts, type RunSummary, type RunView } from '../model/view-tree';

export type RunAnswer = RunView | { rev: string; live: boolean; unchanged: true };

/** Where the page gets its data: the `grove ui` server, or the data inlined in an exported file. */
export interface DataSource {
  /** Set for an exported page: one run, read from the file, never polled. */
  readonly exported?: { workflowId: string; exportedAt: string };
  /** How often to ask again about a live run (ms). */
  readonly pollMs: number;
  runs(filter: { status?: string; kind?: string }): Promise<RunSummary[]>;
  run(workflowId: string, rev?: string): Promise<RunAnswer>;
  node(workflowId: string, id: number): Promise<NodeDetail>;
  /** The run's events as they happen (a running call's answer growing), until the returned function stops them; absent for an exported page. */
  events?(workflowId: string, on: (event: RunEvent) => void): () => void;
}

/** What the server answered when it could not give what was asked: `status` 404 means there is no such run (or node). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The server's read-only JSON API. */
export function liveSource(pollMs: number): DataSource {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(path, { headers: { accept: 'application/json' } });
    const body = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new ApiError(body.error ?? `${res.status} ${res.statusText}`, res.status);
    return body;
  };
  return {
    pollMs,
    runs: async (filter) => {
      const q = new URLSearchParams();
      if (filter.status) q.set('status', filter.status);
      if (filter.kind) q.set('kind', filter.kind);
      return (await get<{ runs: RunSummary[] }>(`/api/runs?${q}`)).runs;
    },
    run: (id, rev) => get<RunAnswer>(`/api/runs/${encodeURIComponent(id)}${rev ? `?rev=${encodeURIComponent(rev)}` : ''}`),
    node: (id, node) => get<NodeDetail>(`/api/runs/${encodeURIComponent(id)}/nodes/${node}`),
    events: (id, on) => {
      const source = new EventSource(`/api/runs/${encodeURIComponent(id)}/stream`);
      const read = (e: MessageEvent) => {
        const event = JSON.parse(e.data as string) as RunEvent;
        on(event);
        // The run has ended: its stream too (left open, the browser would ask again and again).
        if (event.type === 'status' && !event.live) source.close();
      };
      for (const type of ['status', 'node', 'evaluation', 'token']) source.addEventListener(type, read as EventListener);
      source.addEventListener('stream-error', () => source.close());
      return () => source.close();
    },
  };
}

/** An exported page's data: the run's view and each node's parts; conversations are rebuilt here. */
export function staticSource(data: { view: RunView; parts: Record<number, NodeParts>; exportedAt: string }): DataSource {
  const parents = new Map((data.view.tree?.nodes ?? []).map((n) => [n.id, n.parent] as const));
  return {
    exported: { workflowId: data.view.run.workflowId, exportedAt: data.exportedAt },
    pollMs: 0,
    runs: async () => [data.view.run],
    run: async () => ({ ...data.view, live: false }),
    node: async (_id, node) => {
      if (!parents.has(node)) throw new Error(`no node ${node}`);
      const path = pathTo(parents, node);
      return nodeDetail(path.map((id) => data.parts[id] ?? { facts: [], note: 'not exported' }), node);
    },
  };
}
