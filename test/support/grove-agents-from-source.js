// Preload (`node -r tsx/cjs -r ./grove-agents-from-source.js snippet.js`): `require('grove-agents')`
// and `require('grove-agents/<entry>')` load this repository's TypeScript sources, mapped through
// package.json's "exports" as test/support/doc-snippets.ts's packagePaths does, so a docs snippet
// runs as a consumer wrote it without a build or an install.
const Module = require('node:module');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const pkg = require(join(root, 'package.json'));
const sources = {};
for (const [key, target] of Object.entries(pkg.exports)) {
  if (target && typeof target === 'object' && target.types) {
    sources[key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`] = join(root, target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'));
  }
}
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, sources[request] ?? request, ...rest);
};
