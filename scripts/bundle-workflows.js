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
