import { h } from './dom';
import type { TreeCanvas } from './tree-canvas';

/**
 * What a person does to the tree: drag to pan, wheel or +/− to zoom, 0 to fit, click to
 * select, double-click or Enter to fold; arrow keys walk it (← parent, → the child on the best
 * path or the first, ↑ ↓ siblings), so the best path can be followed step by step. Hovering a
 * node shows its whole label. Events are read on the host, so labels and dots behave alike.
 */
export function attachInput(canvas: TreeCanvas, host: HTMLElement): void {
  const tip = h('div', { class: 'tip', hidden: true });
  host.append(tip);
  const local = (e: MouseEvent) => {
    const rect = canvas.canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  const choose = (id: number | undefined) => {
    if (id === undefined) return;
    canvas.select(id, true);
    canvas.onSelect(id);
  };

  let drag: { x: number; y: number; moved: boolean } | undefined;
  host.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, moved: false };
    host.setPointerCapture(e.pointerId);
  });
  host.addEventListener('pointermove', (e) => {
    if (!drag) return hover(e);
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && dx * dx + dy * dy < 16) return;
    drag.moved = true;
    tip.hidden = true;
    host.style.cursor = 'grabbing';
    canvas.pan(dx, dy);
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
  host.addEventListener('pointerup', (e) => {
    const click = drag && !drag.moved;
    drag = undefined;
    host.style.cursor = '';
    if (!click) return;
    const p = local(e);
    choose(canvas.hit(p.x, p.y));
  });
  host.addEventListener('pointerleave', () => (tip.hidden = true));
  host.addEventListener('dblclick', (e) => {
    const p = local(e);
    const id = canvas.hit(p.x, p.y);
    if (id !== undefined) canvas.toggle(id);
  });
  host.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      tip.hidden = true;
      canvas.zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), local(e));
    },
    { passive: false },
  );

  canvas.canvas.addEventListener('keydown', (e) => {
    const sel = canvas.selected ?? canvas.tree.bestPath[0];
    const node = sel === undefined ? undefined : canvas.byId.get(sel);
    const shownKids = (id: number) => (canvas.isCollapsed(id) ? [] : (canvas.children.get(id) ?? []));
    let next: number | undefined;
    switch (e.key) {
      case '+':
      case '=':
        canvas.zoom(1.25);
        break;
      case '-':
      case '_':
        canvas.zoom(0.8);
        break;
      case '0':
        canvas.fit();
        break;
      case 'Enter':
        if (node) canvas.toggle(node.id);
        break;
      case 'ArrowLeft':
        next = node?.parent ?? undefined;
        break;
      case 'ArrowRight': {
        const kids = node ? shownKids(node.id) : [];
        next = (kids.find((k) => canvas.best.has(k.id)) ?? kids[0])?.id;
        break;
      }
      case 'ArrowUp':
      case 'ArrowDown': {
        if (!node || node.parent === null) break;
        const siblings = shownKids(node.parent);
        next = siblings[siblings.findIndex((s) => s.id === node.id) + (e.key === 'ArrowUp' ? -1 : 1)]?.id;
        break;
      }
      default:
        return;
    }
    e.preventDefault();
    choose(next);
  });

  function hover(e: PointerEvent): void {
    const p = local(e);
    const id = canvas.hit(p.x, p.y);
    host.style.cursor = id === undefined ? '' : 'pointer';
    const node = id === undefined ? undefined : canvas.byId.get(id);
    if (!node) {
      tip.hidden = true;
      return;
    }
    const numbers = [node.score !== undefined ? `score ${node.score.toFixed(2)}` : '', node.visits ? `visits ${node.visits}` : '', node.value !== undefined ? `value ${node.value.toFixed(2)}` : ''].filter(Boolean);
    tip.replaceChildren(h('div', { class: 'tip-head' }, `n${node.id} · ${node.status}${numbers.length ? ` · ${numbers.join(' · ')}` : ''}`), h('div', {}, node.label || '(no label kept)'));
    tip.hidden = false;
    tip.style.transform = `translate(${Math.round(Math.min(p.x + 14, host.clientWidth - 340))}px, ${Math.round(p.y + 16)}px)`;
  }
}
