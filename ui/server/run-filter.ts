import { kindClause } from '../../core/runs/run-kind-names';

/** Which runs the list shows. */
export interface RunFilter {
  /** A GroveStatus (`running`, `succeeded`, `failed`, ...). */
  status?: string;
  /** A run kind (`airetry`, `code-fixer`, `agent:mcts`), or `agent` for every search agent. */
  kind?: string;
  /** At most this many runs (default 100, at most 1000). */
  limit?: number;
}

export class ViewerInputError extends Error {
  override name = 'ViewerInputError';
}

const WORD = /^[A-Za-z0-9_:.-]{1,64}$/;

/**
 * A run filter from a URL's query string; a bad value is named and rejected (the values go
 * into a visibility query, so only plain words pass).
 *
 * @example
 * parseRunFilter(new URLSearchParams('status=running&kind=agent')); // { status: 'running', kind: 'agent' }
 */
export function parseRunFilter(params: URLSearchParams): RunFilter {
  const filter: RunFilter = {};
  for (const field of ['status', 'kind'] as const) {
    const value = params.get(field)?.trim();
    if (!value) continue;
    if (!WORD.test(value)) throw new ViewerInputError(`${field} must be a word of letters, digits, _ : . or - (at most 64), got ${JSON.stringify(value.slice(0, 80))}`);
    filter[field] = value;
  }
  const limit = params.get('limit');
  if (limit !== null && limit !== '') {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new ViewerInputError(`limit must be an integer from 1 to 1000, got ${JSON.stringify(limit.slice(0, 20))}`);
    filter.limit = n;
  }
  return filter;
}

/**
 * The visibility query of a filter: grove runs only (they carry a GroveKind).
 *
 * @example
 * visibilityQuery({ status: 'failed', kind: 'airetry' }); // 'GroveKind IS NOT NULL AND GroveStatus = "failed" AND (GroveKind = "airetry" OR GroveKind STARTS_WITH "airetry:")'
 */
export function visibilityQuery(filter: RunFilter): string {
  const parts = ['GroveKind IS NOT NULL'];
  if (filter.status) parts.push(`GroveStatus = "${filter.status}"`);
  if (filter.kind) parts.push(kindClause(filter.kind));
  return parts.join(' AND ');
}
