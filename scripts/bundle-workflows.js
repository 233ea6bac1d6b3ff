// Part of `npm run build`: bundles grove's compiled workflows into dist/workflow-bundle.js (and
// dist/workflow-bundle-traced.js, with the tracing interceptors), so a
// worker of the installed package starts without a bundler, and records the Temporal workflow
// runtime it was built with (the bundle is only used with that version).
const { utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const dist = join(__dirname, '..', 'dist');
const { writeWorkflowBundle, workflowSdkVersion } = require(join(dist, 'workers', 'workflow-bundle.js'));

const workflowsPath = join(dist, 'workflows', 'index.js');
// Two bundles: grove's workflows, and the same with the tracing interceptors for workers that export telemetry.
Promise.all([
  writeWorkflowBundle(join(dist, 'workflow-bundle.js'), { workflowsPath }),
  writeWorkflowBundle(join(dist, 'workflow-bundle-traced.js'), { workflowsPath, tracing: true }),
])
  .then(() => {
    checkSizes();
    writeFileSync(join(dist, 'workflow-bundle.json'), JSON.stringify({ workflowSdk: workflowSdkVersion() }));
    // bin/grove runs dist/ when it is newer than the sources: a build that found nothing to emit still counts.
    const now = new Date();
    utimesSync(join(dist, '.tsbuildinfo'), now, now);
    console.log(`grove: bundled workflows into dist/workflow-bundle.js (@temporalio/workflow ${workflowSdkVersion()})`);
  })
  .catch((err) => {
    console.error(`grove: bundling workflows failed: ${err.message}`);
    process.exit(1);
  });

/**
 * Every worker loads the bundle into each workflow's V8 context: its code must not grow by
 * accident. The inline source map is kept on purpose — workflow failures and Temporal's stack
 * trace query then point at grove's sources — and is not counted. Raise a budget deliberately,
 * saying why, when a feature needs it.
 */
function checkSizes() {
  const { readFileSync } = require('node:fs');
  const budgets = { 'workflow-bundle.js': 2.6e6, 'workflow-bundle-traced.js': 3.3e6 };
  for (const [file, budget] of Object.entries(budgets)) {
    const text = readFileSync(join(dist, file), 'utf8');
    const map = text.lastIndexOf('//# sourceMappingURL=');
    const code = Buffer.byteLength(map >= 0 ? text.slice(0, map) : text);
    if (code > budget) throw new Error(`${file}: ${(code / 1e6).toFixed(2)} MB of code, over its budget of ${(budget / 1e6).toFixed(1)} MB (scripts/bundle-workflows.js); find what grew, or raise the budget on purpose`);
  }
}
