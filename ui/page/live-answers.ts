import type { TokenEvent } from '../../core/runs/run-events';
import { h } from './dom';

const HEADINGS: Record<TokenEvent['state'], string> = {
  streaming: 'Being written now',
  done: 'Written (its node appears once the run records it)',
  failed: 'Stopped: the call failed or was cancelled',
};

/**
 * The answers of a run's model calls while they stream, kept by call and choice, shown in the
 * panel of the node each call extends (its answers become that node's children) and updated in
 * place as they grow — the text changes, the page around it does not. `line` says which nodes
 * are being written below, so a reader knows where to click.
 *
 * @example
 * const live = new LiveAnswers();
 * live.add(tokenEvent);          // from the run's event stream
 * panel.append(live.box(nodeId)); // in the selected node's panel
 */
export class LiveAnswers {
  private readonly streams = new Map<string, TokenEvent>();
  private readonly boxes = new Map<number, HTMLElement>();
  readonly line = h('p', { class: 'note writing', 'data-testid': 'writing', hidden: true });

  /** An answer's latest state; the box of its node (if shown) is updated. */
  add(e: TokenEvent): void {
    this.streams.set(`${e.callId}#${e.choice}`, e);
    if (e.node !== undefined) this.fill(e.node);
    this.showLine();
  }

  /** The tree was drawn again: answers that ended are in it now (or will be), and leave the panels. */
  settle(): void {
    for (const [key, e] of this.streams) if (e.state !== 'streaming') this.streams.delete(key);
    for (const node of this.boxes.keys()) this.fill(node);
    this.showLine();
  }

  /** The element showing the answers being written below `node` (empty while there are none). */
  box(node: number): HTMLElement {
    const box = h('div', { class: 'live-answers', 'data-node': node });
    this.boxes.clear(); // one node's panel is shown at a time
    this.boxes.set(node, box);
    this.fill(node);
    return box;
  }

  private fill(node: number): void {
    const box = this.boxes.get(node);
    if (!box) return;
    const here = [...this.streams.values()].filter((e) => e.node === node).sort((a, b) => a.callId.localeCompare(b.callId) || a.choice - b.choice);
    const blocks = here.map((e) => {
      const key = `${e.callId}#${e.choice}`;
      let block = box.querySelector<HTMLElement>(`[data-stream="${CSS.escape(key)}"]`);
      if (!block) block = h('div', { class: 'block streaming', 'data-stream': key }, h('h3', {}), h('pre', { class: 'stream-text' }));
      block.dataset.state = e.state;
      block.querySelector('h3')!.textContent = `${HEADINGS[e.state]}${e.choice > 0 ? ` — answer ${e.choice + 1}` : ''}${e.summary ? ` · ${e.summary}` : ''}`;
      block.querySelector('pre')!.textContent = e.cut ? `${e.text}\n[…]` : e.text;
      return block;
    });
    box.replaceChildren(...blocks);
  }

  private showLine(): void {
    const nodes = [...new Set([...this.streams.values()].filter((e) => e.state === 'streaming' && e.node !== undefined).map((e) => e.node!))];
    this.line.hidden = nodes.length === 0;
    this.line.textContent = nodes.length ? `The model is writing below ${nodes.map((n) => `n${n}`).join(', ')}: click it to read the answer as it grows.` : '';
  }
}
