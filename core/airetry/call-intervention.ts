/**
 * What a person may ask of a running AI call, between two airetry rounds:
 * - `rewind`: prune every sample that grew from `nodeId`; with `content`, the sample's answer is
 *   replaced by it first (a new sample the checks then judge); without, the call retries from the
 *   node (with `feedback`, sent as the retry's feedback);
 * - `feedback`: a person's failed check on a sample — it is marked failed, the text is added to
 *   its feedback, and the call retries from it.
 */
export type CallIntervention =
  | { kind: 'rewind'; nodeId: number; content?: string; feedback?: string }
  | { kind: 'feedback'; nodeId: number; text: string };

export interface CallInterventionResult {
  /** The sample the call goes on from. */
  activeSampleId: number;
  /** Samples the intervention abandoned (kept in the tree, flagged). */
  abandoned: number[];
  /** Samples it drew (a retry) or wrote (a replacement). */
  added: number[];
}
