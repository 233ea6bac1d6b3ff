/**
 * A gate that holds requests unanswered until a test lets them go. WHY: a test that guards a
 * window — "the model had answered when the worker died, before it recorded the answer" — must
 * be in that window by construction, not by timing: hold the calls, freeze the worker, release
 * the calls (they are answered and counted as completed), then kill the worker.
 */
import type http from 'node:http';
import { faultMatches, type FaultTarget } from './fault-book';
import type { FaultMatch } from './types';

interface Held {
  callKey: string;
  go: (answer: boolean) => void;
}

export interface HoldOptions {
  /** Hold a streamed answer after this many tokens were sent (0: after its role chunk, before any token); answers not streamed are not held. */
  afterTokens?: number;
}

export class HoldGate {
  private closedFor: FaultMatch | undefined;
  private afterTokens: number | undefined;
  private readonly waiting = new Set<Held>();

  /** Closes the gate for the requests `match` selects (all when empty): they wait, unanswered, until `release`. */
  hold(match: FaultMatch = {}, opts: HoldOptions = {}): void {
    this.closedFor = match;
    this.afterTokens = opts.afterTokens;
  }

  /** Opens the gate: every held request goes on (to the fault rules, then its answer). Returns their call keys. */
  release(): string[] {
    this.closedFor = undefined;
    this.afterTokens = undefined;
    const keys = [...this.waiting].map((w) => w.callKey);
    for (const w of this.waiting) w.go(true);
    this.waiting.clear();
    return keys;
  }

  /** The call keys of the requests held now ('' for a request without one). */
  held(): string[] {
    return [...this.waiting].map((w) => w.callKey);
  }

  /** Lets every held request go unanswered (the server is closing). */
  drop(): void {
    for (const w of this.waiting) w.go(false);
    this.waiting.clear();
  }

  /**
   * Resolves true at once when the gate is open for this request, else when it is released;
   * false when the client went away while it was held. `sentTokens` is undefined before an
   * answer begins, and the tokens sent so far while one streams.
   *
   * @example
   * if (!(await gate.pass(target, res))) return; // the client is gone
   */
  pass(target: FaultTarget, res: http.ServerResponse, sentTokens?: number): Promise<boolean> {
    if (!this.closedFor || sentTokens !== this.afterTokens || !faultMatches({ match: this.closedFor, action: { kind: 'hang' } }, target)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const held: Held = {
        callKey: target.callKey ?? '',
        go: (answer) => {
          res.off('close', gone);
          resolve(answer && !res.destroyed);
        },
      };
      const gone = () => {
        this.waiting.delete(held);
        resolve(false);
      };
      res.once('close', gone);
      this.waiting.add(held);
    });
  }
}
