import type { Message } from '../../core/schemas/messages';
import type { Facts, NodeDetail } from '../model/view-tree';
import { h } from './dom';

/** A `[label, value]` table. */
export function factsTable(facts: Facts, cls = 'facts'): HTMLElement {
  return h('table', { class: cls }, h('tbody', {}, ...facts.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v)))));
}

/**
 * A node's details: facts, the check feedback and the evaluator's reasoning, then its
 * conversation — the messages it inherited folded away, the messages it added shown in full
 * (tool calls with their arguments, tool outputs). `live` holds the answers being written below
 * it while a call streams (`LiveAnswers`).
 */
export function nodePanel(detail: NodeDetail, opts: { label?: string; collapsible: boolean; collapsed: boolean; onToggle: () => void; live?: HTMLElement }): HTMLElement {
  const inherited = detail.conversation.slice(0, detail.own);
  const own = detail.conversation.slice(detail.own);
  return h(
    'section',
    { class: 'node-panel', 'data-node': detail.id },
    h('h2', {}, `n${detail.id}`, opts.collapsible ? h('button', { class: 'toggle', onclick: opts.onToggle }, opts.collapsed ? 'expand subtree' : 'collapse subtree') : undefined),
    opts.label ? h('p', { class: 'node-title' }, opts.label) : undefined,
    factsTable(detail.facts),
    opts.live,
    detail.feedback ? h('div', { class: 'block feedback' }, h('h3', {}, 'Check feedback'), h('pre', {}, detail.feedback)) : undefined,
    detail.reasoning ? h('div', { class: 'block reasoning' }, h('h3', {}, 'Evaluator reasoning'), h('pre', {}, detail.reasoning)) : undefined,
    detail.note ? h('p', { class: 'note' }, detail.note) : undefined,
    inherited.length > 0
      ? h('details', { class: 'inherited', open: inherited.length <= 3 }, h('summary', {}, `${inherited.length} earlier message${inherited.length === 1 ? '' : 's'} (from its ancestors)`), ...inherited.map((m) => message(m, false)))
      : undefined,
    own.length > 0 ? h('h3', {}, 'Added by this node') : undefined,
    ...own.map((m) => message(m, true)),
  );
}

function message(m: Message, own: boolean): HTMLElement {
  const body: (HTMLElement | undefined)[] = [];
  if (m.role === 'user' && Array.isArray(m.content)) {
    for (const part of m.content) body.push(part.type === 'text' ? h('pre', {}, part.text) : h('p', { class: 'note' }, '[image]'));
  } else if (typeof m.content === 'string' && m.content) body.push(h('pre', {}, m.content));
  if (m.role === 'assistant') {
    for (const call of m.tool_calls ?? []) body.push(h('pre', { class: 'tool-call' }, `→ ${call.function.name}(${pretty(call.function.arguments)})`));
    if (m.refusal) body.push(h('pre', { class: 'note' }, `refusal: ${m.refusal}`));
  }
  return h('div', { class: `message ${m.role}${own ? ' own' : ''}` }, h('span', { class: 'role' }, m.role === 'tool' ? 'tool output' : m.role), ...body);
}

function pretty(args: string): string {
  try {
    const text = JSON.stringify(JSON.parse(args));
    return text.length > 80 ? JSON.stringify(JSON.parse(args), null, 2) : text;
  } catch {
    return args;
  }
}
