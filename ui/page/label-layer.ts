import type { PlacedLabel } from '../model/label-placement';
import type { ViewNode } from '../model/view-tree';
import { h } from './dom';

/** The labels' font (the stylesheet's `.node-label` uses the same, so measured widths hold). */
export const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
/** A label's height in pixels. */
export const LABEL_HEIGHT = 17;
/** Left and right padding of a label, in pixels. */
const PAD = 3;

/** How a node is written: its score, what it did, its id, and how many nodes a fold hides. */
export interface LabelText {
  score?: string;
  text: string;
  id?: string;
  more?: string;
}

/**
 * A node's words on the tree.
 *
 * @example
 * labelText({ id: 7, label: 'multiply(a: 2, b: 3)', score: 0.8, ... }, undefined); // { score: '0.80', text: 'multiply(a: 2, b: 3)', id: 'n7' }
 */
export function labelText(node: ViewNode, hidden: number | undefined): LabelText {
  return {
    score: node.score === undefined ? undefined : node.score.toFixed(2),
    text: node.label || `n${node.id}`,
    id: node.label ? `n${node.id}` : undefined,
    more: hidden ? `+${hidden}` : undefined,
  };
}

/**
 * The labels, as text on the page (not pixels on the canvas): crisp at any zoom, reachable by a
 * screen reader, found by tests by their words. Elements are kept per node and only moved while
 * the view pans.
 */
export class LabelLayer {
  readonly element: HTMLDivElement;
  private readonly els = new Map<number, HTMLElement>();
  private readonly widths = new Map<string, number>();
  private readonly measure = document.createElement('canvas').getContext('2d')!;

  constructor(host: HTMLElement) {
    this.element = h('div', { class: 'labels', 'aria-label': 'node labels' });
    host.append(this.element);
    this.measure.font = LABEL_FONT;
  }

  /** The full width of a label (text, padding and extras), measured once per text; `bold` for the best path's. */
  width(t: LabelText, bold = false): number {
    const key = `${bold ? 'b' : ''}\u0000${t.score ?? ''}\u0000${t.text}\u0000${t.id ?? ''}\u0000${t.more ?? ''}`;
    let w = this.widths.get(key);
    if (w === undefined) {
      const extras = [t.score, t.id, t.more].filter(Boolean).join('  ');
      this.measure.font = bold ? `600 ${LABEL_FONT}` : LABEL_FONT;
      const text = this.measure.measureText(t.text).width;
      this.measure.font = `600 11px ${LABEL_FONT.split('px ')[1]}`;
      w = Math.ceil(text + this.measure.measureText(extras).width + (extras ? 8 : 0) + 2 * PAD + 2);
      if (this.widths.size > 20_000) this.widths.clear();
      this.widths.set(key, w);
    }
    return w;
  }

  /** Shows exactly these labels. */
  show(placed: PlacedLabel[], content: (index: number) => { id: number; text: LabelText; cls: string }): void {
    const seen = new Set<number>();
    for (const p of placed) {
      const { id, text, cls } = content(p.index);
      seen.add(id);
      let el = this.els.get(id);
      if (!el) {
        el = h('div', { 'data-node': id });
        this.els.set(id, el);
        this.element.append(el);
      }
      const key = `${cls}\u0000${text.text}\u0000${text.score}\u0000${text.more}`;
      if (el.dataset.key !== key) {
        el.dataset.key = key;
        el.className = cls;
        el.replaceChildren(
          ...(text.more ? [h('span', { class: 'more' }, text.more), ' '] : []),
          ...(text.score ? [h('span', { class: 'score' }, text.score), ' '] : []),
          h('span', { class: 'text' }, text.text),
          ...(text.id ? [' ', h('span', { class: 'id' }, text.id)] : []),
        );
      }
      el.style.transform = `translate(${Math.round(p.x)}px, ${Math.round(p.y - LABEL_HEIGHT / 2)}px)`;
      el.style.maxWidth = `${Math.max(0, Math.floor(p.width))}px`;
    }
    for (const [id, el] of this.els) {
      if (seen.has(id)) continue;
      el.remove();
      this.els.delete(id);
    }
  }
}
