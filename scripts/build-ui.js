// `npm run build:ui` (part of `npm run build`): bundles the viewer's page (ui/page/ and ui/model/,
// TypeScript, and its CSS) into one small script, dist/ui/app.js, that `grove ui` serves and
// `grove ui export` inlines. No CDN, nothing fetched at run time.
const { buildSync } = require('esbuild');
const { statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const outfile = join(root, 'dist', 'ui', 'app.js');
buildSync({
  entryPoints: [join(root, 'ui', 'page', 'main.ts')],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  platform: 'browser',
  loader: { '.css': 'text' },
  legalComments: 'eof',
  logLevel: 'warning',
});
console.log(`grove: built the viewer page into dist/ui/app.js (${(statSync(outfile).size / 1024).toFixed(1)} KB)`);
