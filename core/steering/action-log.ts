import { shorten } from '../conversation/preview';
import type { HumanAction } from '../schemas/steering';

const DETAIL_CHARS = 200;

/**
 * The audit log of a run's human actions: who did what, when (workflow time), in the order the
 * run applied them. The updates themselves are in the run's history with their arguments; the
 * log is what the `actions` query, the UI's details and the result show.
 *
 * @example
 * const log = new ActionLog();
 * log.record({ at: now, by: 'ana', action: 'rewind', target: 'message 4', detail: 'Paris.' });
 */
export class ActionLog {
  private readonly entries: HumanAction[];

  constructor(entries: HumanAction[] = []) {
    this.entries = [...entries];
  }

  record(action: Omit<HumanAction, 'seq'>): HumanAction {
    const entry: HumanAction = { seq: this.entries.length + 1, ...action };
    if (entry.detail !== undefined) entry.detail = shorten(entry.detail, DETAIL_CHARS);
    this.entries.push(entry);
    return entry;
  }

  get list(): readonly HumanAction[] {
    return this.entries;
  }

  toJSON(): HumanAction[] {
    return [...this.entries];
  }
}
