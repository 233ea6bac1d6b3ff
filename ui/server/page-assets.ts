import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILED } from '../../runtime/paths';
import type { ExportData } from './run-view';

const ROOT = COMPILED ? join(__dirname, '..', '..', '..') : join(__dirname, '..', '..');
const BUNDLE = join(ROOT, 'dist', 'ui', 'app.js');
const PAGE_SOURCES = join(ROOT, 'ui', 'page');

export class PageNotBuiltError extends Error {
  override name = 'PageNotBuiltError';
}

let script: string | undefined;

/**
 * The page's script (dist/ui/app.js, built by `npm run build:ui`). In a source checkout it is
 * rebuilt first when missing or older than the page's sources, so `grove ui` always serves the
 * page you see in ui/page/.
 *
 * @example
 * const js = pageScript();
 */
export function pageScript(): string {
  if (script !== undefined) return script;
  if (existsSync(PAGE_SOURCES) && (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newest(PAGE_SOURCES))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-ui.js')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(BUNDLE)) throw new PageNotBuiltError(`the viewer's page is not built (${BUNDLE} is missing): run \`npm run build:ui\``);
  script = readFileSync(BUNDLE, 'utf8');
  return script;
}

function newest(dir: string): number {
  let at = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    at = Math.max(at, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return at;
}

/** The policy of the served page: its own script and API only. */
export const SERVED_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The policy of an exported page: nothing leaves the file (no requests at all). */
export const EXPORT_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * The served page: an empty shell the script fills (`pollMs` tells it how often to ask about a
 * live run).
 */
export function servedPage(opts: { pollMs: number }): string {
  return shell(`<meta http-equiv="Content-Security-Policy" content="${SERVED_CSP}">`, `<body data-poll-ms="${opts.pollMs}">`, '<script src="/app.js"></script>');
}

/**
 * A self-contained page of one run: the script and the run's data inline, no requests.
 * The data is JSON inside a non-executed script element with `<` escaped, so no message text
 * can end the element; the script's own `</script` sequences are escaped the same way.
 */
export function exportedPage(data: ExportData, js: string): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return shell(
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<body>',
    `<script id="grove-data" type="application/json">${json}</script>\n<script>${js.replace(/<\/(script)/gi, '<\\/$1')}</script>`,
  );
}

function shell(csp: string, body: string, scripts: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${csp}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>grove</title>
</head>
${body}
<noscript>The grove viewer needs JavaScript.</noscript>
${scripts}
</body>
</html>
`;
}
