import type { NodeStatus } from '../model/view-tree';

/** Colours of the statuses (the legend uses the same). */
export const STATUS_COLORS: Record<NodeStatus, string> = {
  root: '#4a4f57',
  expanded: '#8a8f98',
  open: '#2f7de1',
  solution: '#17924a',
  terminal: '#c08a00',
  pruned: '#c3c7ce',
  failed: '#d64545',
  abandoned: '#9b6bc4',
};
export const BEST_COLOR = '#e8a317';
