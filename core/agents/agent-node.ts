import type { PathRecord, Ref } from '../hash/refs';
import type { Message } from '../schemas/messages';

/**
 * What a search-tree node keeps in workflow state: the content address of its trajectory and
 * a few flags — never the messages themselves, which live in the message store (written by the
 * activities that produced them). A node costs tens of bytes of state, so a search of 10,000
 * nodes still fits through continue-as-new.
 */
export interface AgentNode {
  /**
   * Content address of the trajectory from the prompt to this node. Dropped at a handover for
   * finished leaves off the best trajectory (nothing needs their conversation again).
   */
  ref?: Ref;
  /** The path record, until an activity that carried it succeeded (then the store has it). */
  pending?: PathRecord;
  /** Root only, until written: the prompt messages. */
  prompt?: Message[];
  /**
   * Messages of this step that no activity wrote to the store (a person's replacement answer, a
   * tool call's refusal), until an activity that carried them succeeded.
   */
  inline?: Message[];
  /** An output node: a text answer, or a call to a terminal tool. */
  output?: boolean;
  /** A short label for trees and the UI, e.g. `multiply(9418.343, 8.11)` or `"The answer is 42"`. */
  preview?: string;
  /** How many of this step's tool calls came back as errors. */
  toolErrors?: number;
  /** The evaluator's reasoning, shortened. */
  reasoning?: string;
  /** Why its evaluation failed (shortened): the node is then never a solution. */
  evaluationFailed?: string;
  /** MCTS: this node lies on a solved trajectory. */
  solved?: boolean;
}
