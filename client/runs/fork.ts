import type { Client, WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { forkOrigin, type ForkOptions } from '../../core/runs/fork';
import { unsupportedOverrides, withOverrides, type RunOverrides } from '../../core/runs/run-overrides';
import { SampleTree } from '../../core/tree/sample-tree';
import type { AgentNode } from '../../core/agents/agent-node';
import { runInput } from './run-input';

/** Why a fork cannot start, in words that say what to do instead. Exit code 2 in the CLI. */
export class CannotForkError extends Error {
  override name = 'GroveCannotFork';
}

export interface ForkRunOptions extends ForkOptions {
  /** The node of the parent's tree to continue from (`grove tree` shows the ids). */
  nodeId: number;
  /** Changed settings for the fork (a bigger budget, another model): applied to the parent's input. */
  overrides?: RunOverrides;
  /** The fork's workflow id (default `<parent>-fork-n<node>-<random>`). */
  workflowId?: string;
}

/** What `prepareFork` builds: the kind and the input of the new run. */
export interface PreparedFork {
  kind: 'agent' | 'airetry';
  input: Record<string, unknown>;
  parent: { workflowId: string; runId: string };
  workflowId: string;
}

/**
 * The input of a fork of `parentId` at `opts.nodeId` (see `ForkOrigin`): the parent's own input
 * (from its history), with `fork` carrying the path from the root to the node — every paid
 * result on it — and the overrides applied. The parent may be finished, failed, cancelled,
 * terminated or still running; its tree is read from its result, else by query (a worker must
 * be up to answer a query on a run that did not complete).
 *
 * @throws CannotForkError naming what is wrong (a run kind without a tree, an unknown node, an
 *   answer node).
 * @example
 * const { kind, input, workflowId } = await prepareFork(client, 'agent-1a2b', { nodeId: 7, overrides: { budget: { maxCalls: 30 } } });
 */
export async function prepareFork(client: Client, parentId: string, opts: ForkRunOptions): Promise<PreparedFork> {
  const handle = client.workflow.getHandle(parentId);
  const description = await handle.describe();
  const kind = description.type;
  if (kind !== 'agent' && kind !== 'airetry') {
    throw new CannotForkError(`${parentId} is a ${kind} run: only agent and airetry runs have a tree to fork from`);
  }
  const bad = unsupportedOverrides(kind, opts.overrides ?? {});
  if (bad.length > 0) throw new CannotForkError(`a fork of an ${kind} run cannot change ${bad.join(', ')}`);
  const run = client.workflow.getHandle(parentId, description.runId);
  const [parentInput, treeJson] = await Promise.all([
    runInput(client, run).catch((err: Error) => Promise.reject(new CannotForkError(err.message))),
    runTree(run, description.status.name),
  ]);
  const tree = SampleTree.fromJSON<unknown>(treeJson);
  if (!tree.has(opts.nodeId)) {
    throw new CannotForkError(`${parentId} has no node n${opts.nodeId} (its tree has ${tree.size} nodes; \`grove tree ${parentId}\` shows them)`);
  }
  checkForkable(kind, tree, opts.nodeId);
  const parent = { workflowId: parentId, runId: description.runId };
  const { fork: _previous, ...rest } = parentInput;
  const input = withOverrides(kind, { ...rest, fork: forkOrigin(parent, tree, opts.nodeId, opts) }, opts.overrides ?? {});
  return { kind, input, parent, workflowId: opts.workflowId ?? `${parentId}-fork-n${opts.nodeId}-${randomUUID().slice(0, 4)}` };
}

function checkForkable(kind: 'agent' | 'airetry', tree: SampleTree<unknown>, nodeId: number): void {
  const node = tree.node(nodeId);
  if (kind === 'airetry' && nodeId === tree.rootId) {
    throw new CannotForkError(`n${nodeId} is the prompt, which has no answer to continue from: fork from a sample, or start a new run`);
  }
  if (kind === 'agent') {
    const data = node.data as AgentNode;
    if (data.output) throw new CannotForkError(`n${nodeId} is a finished answer: fork from its parent n${node.parent} to search again from there`);
    if (data.ref === undefined) throw new CannotForkError(`n${nodeId} was compacted away at a handover (a finished leaf): fork from its parent n${node.parent}`);
  }
}

/** The run's tree: from its result when it completed with one, else by the `tree` query. */
async function runTree(run: WorkflowHandle, status: string): Promise<unknown> {
  if (status === 'COMPLETED') {
    const result = (await run.result()) as { tree?: unknown };
    if (result.tree !== undefined) return result.tree;
  }
  try {
    return await run.query<unknown>('tree');
  } catch (err) {
    throw new CannotForkError(
      `cannot read the tree of ${run.workflowId}: ${(err as Error).message.split('\n')[0]} (a run that did not complete answers the query only while a worker serves its task queue)`,
    );
  }
}
