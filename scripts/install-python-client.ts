/**
 * Installs Temporal's Python SDK into .grove/py for the test of the documented Python snippet
 * (the test installs it on first use too; CI does it up front so a failure has its own line):
 * `npx tsx scripts/install-python-client.ts`.
 */
import { ensurePythonTemporalio, TEMPORALIO_PACKAGE } from '../test/support/python-temporalio';

console.log(`${TEMPORALIO_PACKAGE} for Python in ${ensurePythonTemporalio()}`);
