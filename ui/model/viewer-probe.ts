/**
 * `window.groveViewer` on a run page: browser tests and the benchmark read it (never the page
 * itself). Numbers describe the latest update.
 */
export interface ViewerProbe {
  workflowId: string;
  rev?: string;
  live: boolean;
  nodes: number;
  shown: number;
  bestPath: number[];
  selected?: number;
  updates: number;
  /** The last update: fetching, layout and drawing (ms). */
  fetchMs: number;
  layoutMs: number;
  drawMs: number;
  /** When the last new view was drawn (performance.now()). */
  drawnAt: number;
  screenPosition(id: number): { x: number; y: number } | undefined;
}

