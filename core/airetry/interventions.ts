import { InvalidArgumentError } from '../errors';
import { assistantMessage } from '../schemas/messages';
import { rewindTree } from '../steering/rewind-tree';
import type { AICall } from './ai-call';
import type { CallIntervention, CallInterventionResult } from './call-intervention';
import { feedbackDelta } from './feedback-delta';
import { runCall } from './run-call';

/**
 * Applies one intervention to a call (see {@link CallIntervention}); `airetry` does it at the
 * top of each round, so a person's action is taken between rounds, never inside one.
 *
 * @throws InvalidArgumentError (or UnknownNodeError) when it cannot apply: an abandoned or unknown
 * sample, a replaced prompt, a retry with no calls left. The run goes on unchanged.
 * @example
 * await applyIntervention(call, { kind: 'feedback', nodeId: 3, text: 'Answer with a color.' });
 */
export async function applyIntervention<T>(call: AICall<T>, request: CallIntervention): Promise<CallInterventionResult> {
  const tree = call.samples;
  const node = tree.node(request.nodeId);
  if (node.abandoned) throw new InvalidArgumentError(`sample ${node.id} is on an abandoned branch: intervene on a sample of the live tree`);
  const retries = !(request.kind === 'rewind' && request.content !== undefined);
  if (retries && call.config.calls >= call.config.maxCalls) {
    throw new InvalidArgumentError(`the call has drawn all its samples (calls ${call.config.calls}/${call.config.maxCalls}): nothing left to retry with`);
  }
  if (request.kind === 'feedback') {
    tree.setFeedback(node.id, node.feedback === '' ? request.text : `${node.feedback}\n${request.text}`);
    tree.setSuccess(node.id, false);
    tree.backpropagate(node.id, { wins: 0, visits: 1 });
    return retryFrom(call, node.id, []);
  }
  if (request.content === undefined) {
    const { abandoned } = rewindTree(tree, { nodeId: node.id, feedback: request.feedback });
    return retryFrom(call, node.id, abandoned);
  }
  const answer = assistantMessage(request.content);
  if (node.parent === null) throw new InvalidArgumentError(`sample ${node.id} is the prompt: only answers can be replaced (rewind it without content to sample again)`);
  const record = call.refs.record(call.pathRef(node.id))!;
  const { abandoned, replacementId } = rewindTree(tree, {
    nodeId: node.id,
    replacement: { ...node.data, add: [...node.data.add.slice(0, -1), answer] },
    feedback: request.feedback,
  });
  call.setPathRef(replacementId!, call.refs.addPath(record.parent, record.keep, [answer]));
  call.activeSampleId = replacementId!;
  return { activeSampleId: replacementId!, abandoned, added: [replacementId!] };
}

async function retryFrom<T>(call: AICall<T>, nodeId: number, abandoned: number[]): Promise<CallInterventionResult> {
  const first = call.samples.nextId;
  call.activeSampleId = nodeId;
  const send = feedbackDelta(call, nodeId);
  await runCall(call, send.add.length > 0 || send.keep !== undefined ? { send } : {});
  const added = Array.from({ length: call.samples.nextId - first }, (_, i) => first + i);
  return { activeSampleId: call.activeSampleId, abandoned, added };
}
