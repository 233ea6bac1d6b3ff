import type { NodeParts, RunView } from '../model/view-tree';
import { liveSource, staticSource, type DataSource } from './data-source';
import { runList } from './run-list';
import { runPage } from './run-page';
import css from './styles.css';

/**
 * The viewer's page. Served by `grove ui`, it reads the server's API; exported by
 * `grove ui export`, it reads the run inlined in the file and makes no requests.
 * Routes: `#/` (runs, `#/?status=running&kind=agent`) and `#/run/<workflowId>`.
 */
function boot(): void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  const app = document.createElement('div');
  app.id = 'app';
  document.body.prepend(app);

  const inlined = document.getElementById('grove-data');
  const source: DataSource = inlined
    ? staticSource(JSON.parse(inlined.textContent ?? '{}') as { view: RunView; parts: Record<number, NodeParts>; exportedAt: string })
    : liveSource(Number(document.body.dataset.pollMs) || 1000);

  let stop: (() => void) | undefined;
  const route = () => {
    stop?.();
    const hash = location.hash.replace(/^#/, '') || '/';
    const run = /^\/run\/(.+)$/.exec(hash);
    if (source.exported) {
      document.title = `grove · ${source.exported.workflowId}`;
      stop = runPage(app, source, source.exported.workflowId);
    } else if (run) {
      const workflowId = decodeURIComponent(run[1]);
      document.title = `grove · ${workflowId}`;
      stop = runPage(app, source, workflowId);
    } else {
      document.title = 'grove runs';
      const params = new URLSearchParams(hash.split('?')[1] ?? '');
      stop = runList(app, source, { status: params.get('status') ?? undefined, kind: params.get('kind') ?? undefined });
    }
  };
  window.addEventListener('hashchange', route);
  route();
}

boot();
