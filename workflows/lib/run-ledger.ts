import { CallLedger } from '../../core/hash/call-ledger';

/**
 * The workflow execution's call ledger (`CallLedger`): one per execution, shared by every port
 * and lazy call of the run, so two identical requests of one run never share a record. Module
 * state of a workflow bundle is isolated per workflow execution by the Temporal SDK, so this
 * variable belongs to exactly one run.
 *
 * @example
 * const input = runLedger().keyed('llmChat', { conversation, model });
 */
let ledger: CallLedger | undefined;

export function runLedger(): CallLedger {
  return (ledger ??= new CallLedger(0));
}

/** A run that continues as new sets its generation (its handover count) before it calls anything. */
export function setLedgerGeneration(generation: number): void {
  runLedger().generation = generation;
}
