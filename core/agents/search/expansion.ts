import { droppedCallsAnswer, runnableCalls } from '../../conversation/fit-message';
import { messageRef, pathRef, type PathRecord, type Ref } from '../../hash/refs';
import type { EvaluateResult } from '../../schemas/agent-activities';
import type { AssistantMessage } from '../../schemas/messages';
import type { AgentNode } from '../agent-node';
import { selectCandidates } from '../candidates';
import { evaluationData } from '../evaluation-failures';
import { mapLimit } from '../map-limit';
import { markWritten, refOf, trajectoryInput } from '../path-book';
import { endsTrajectory, isOutputMessage, isTerminal } from '../predicates';
import { spend, type CallBudget, type ExpansionPlan } from './budget-plan';
import { compactScore, runEvaluation } from './evaluation';
import { candidateParams, previewOf, searchSystemPrompt } from './search-prompts';
import type { SearchEnv } from './search-ops';
import { offeredTools, runTool, type ToolRun } from './tool-runs';

/**
 * An expansion of `nodeId` whose children are not attached yet: one model call for the planned
 * number of candidates (deduplicated), every tool call of every candidate run (each its own
 * activity), each child evaluated when the plan says so — or when it ends its trajectory — and
 * the returned function attaches the children to the tree in candidate order with their
 * scores. A terminal node gets no children. Parallel searches run several at once and attach
 * them in an order of their own (not the order their calls happened to finish), so the tree's
 * node ids — and every later decision — do not depend on timing. The candidates are counted
 * against the budget (reserved) before the first call goes out.
 *
 * @example
 * const attach = await prepareExpansion(env, budget, 0);
 * const childIds = attach();
 */
export async function prepareExpansion(env: SearchEnv, budget: CallBudget, nodeId: number): Promise<() => number[]> {
  const tree = env.state.tree;
  const node = tree.node(nodeId);
  if (isTerminal(node, env.rules)) return () => [];
  const plan = budget.planExpansion(node.depth);
  const reserve = budget.expansionCalls(plan.k);
  budget.reserved += reserve;
  const span = env.port.startSpan?.('grove.expand', { 'grove.node.id': nodeId, 'grove.node.depth': node.depth, 'grove.expansion.width': plan.k });
  try {
    const attach = await (span ? span.within(() => expandReserved(env, budget, nodeId, node.depth, plan)) : expandReserved(env, budget, nodeId, node.depth, plan));
    if (!span) return attach;
    // The span ends once the children are attached, naming them and their scores.
    return () => {
      const ids = attach();
      span.end({ 'grove.node.children': ids, 'grove.node.scores': ids.map((id) => tree.node(id).score ?? -1) });
      return ids;
    };
  } catch (err) {
    span?.end(undefined, err);
    throw err;
  } finally {
    budget.reserved -= reserve;
  }
}

/**
 * A round of a parallel search: expands several nodes at once and attaches their children in
 * the order given, whatever order the calls finish in. Launched in order, each reserving its
 * calls before the next is priced: the first always launches (it may stop the search — nothing
 * else is under way then), later ones only while the budget has room for a candidate and its
 * evaluation. Returns the children of the nodes launched, a prefix of `ids`; the rest wait for
 * a later round.
 *
 * @example
 * const [childrenOf3, childrenOf5] = await expandRound(env, budget, [3, 5]);
 */
export async function expandRound(env: SearchEnv, budget: CallBudget, ids: number[]): Promise<number[][]> {
  const launched: Array<Promise<() => number[]>> = [];
  for (const id of ids) {
    if (launched.length > 0 && budget.budgetStop(budget.expansionCalls(1))) break;
    launched.push(prepareExpansion(env, budget, id));
  }
  return (await Promise.all(launched)).map((attach) => attach());
}

async function expandReserved(env: SearchEnv, budget: CallBudget, nodeId: number, depth: number, { k, evaluate }: ExpansionPlan): Promise<() => number[]> {
  const { state, options } = env;
  const tree = state.tree;
  const offered = await offeredTools(env, nodeId);
  const input = trajectoryInput(tree, nodeId);
  const result = await env.port.chat(
    { conversation: input, model: options.model, params: candidateParams(env, offered, k), system: searchSystemPrompt(env, nodeId), runId: `n${nodeId}` },
    `expand n${nodeId} (depth ${depth}): ${k} candidate${k === 1 ? '' : 's'}${!evaluate && budget.evaluates() ? ', evaluated only if it ends the trajectory (budget plan)' : k < budget.bFactor ? ' (the rest of the budget)' : ''}`,
  );
  markWritten(tree, nodeId, input);
  state.models.answer = result.model;
  state.counters.llmCalls += 1;
  state.counters.expansions += 1;
  spend(env, result.usage);

  const refs = new Map(result.choices.map((c) => [c.message, c.ref] as const));
  const chosen = selectCandidates(result.choices.map((c) => c.message), k);
  const children = await mapLimit(chosen, options.maxConcurrency, (message, i) =>
    buildChild(env, budget, nodeId, message, refs.get(message)!, offered, `${i + 1}/${chosen.length}`, evaluate),
  );
  return () =>
    children.map(({ data, evaluation }) => {
      const child = tree.expand(nodeId, data);
      if (evaluation) tree.setScore(child.id, compactScore(evaluation.score));
      return child.id;
    });
}

/** One candidate made a child: its tool calls run, the calls grove dropped answered, and — when due — its evaluation. */
async function buildChild(env: SearchEnv, budget: CallBudget, nodeId: number, message: AssistantMessage, assistantRef: Ref, offered: string[], label: string, evaluate: boolean) {
  const { state } = env;
  const tree = state.tree;
  const calls = runnableCalls(message);
  let tools: ToolRun[] = [];
  if (calls.length > 0) {
    const input = trajectoryInput(tree, nodeId);
    tools = await Promise.all(
      calls.map((call) => runTool(env, call, input, offered, `n${nodeId} candidate ${label}`, `tool ${call.function.name} for n${nodeId} candidate ${label}`)),
    );
    markWritten(tree, nodeId, input);
    state.counters.toolRuns += tools.filter((t) => !t.refused).length;
  }
  // Calls grove dropped (too many in one answer) get one answer, written here: no tool ran.
  const dropped = droppedCallsAnswer(message);
  if (dropped) tools.push({ message: dropped, ref: messageRef(dropped), isError: true, refused: true });
  state.counters.toolErrors += tools.filter((t) => t.isError).length;
  const record: PathRecord = { parent: refOf(tree, nodeId), add: [assistantRef, ...tools.map((t) => t.ref)] };
  const data: AgentNode = { ref: pathRef(record), pending: record, preview: previewOf(message) };
  const refusals = tools.filter((t) => t.refused).map((t) => t.message);
  if (refusals.length > 0) data.inline = refusals;
  if (isOutputMessage(message, state.specs)) data.output = true;
  const errors = tools.filter((t) => t.isError).length;
  if (errors > 0) data.toolErrors = errors;
  let evaluation: EvaluateResult | undefined;
  if (budget.evaluates() && (evaluate || endsTrajectory(data, tree.node(nodeId).depth + 1, env.rules))) {
    const input = trajectoryInput(tree, nodeId, { record, messages: data.inline });
    evaluation = await runEvaluation(env, input, `evaluate n${nodeId} candidate ${label}: ${data.preview}`);
    markWritten(tree, nodeId, input);
    delete data.pending;
    delete data.inline;
    Object.assign(data, evaluationData(evaluation));
  }
  return { data, evaluation };
}
