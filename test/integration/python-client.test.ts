import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { GenerateResultSchema } from '../../core/generate/generate-input';
import { GroveKind, GroveStatus } from '../../workflows/search-attributes';
import { integrationSuite } from '../support/integration-suite';
import { ensurePythonTemporalio } from '../../scripts/install-python-client';
import { ROOT } from '../support/run-cli';

/**
 * The documented Python snippet (examples/clients/start_run.py) starts grove runs by name with
 * Temporal's own Python SDK: one JSON argument in, the published result shape out.
 */
const suite = integrationSuite('python');
let pythonPath: string;

beforeAll(() => {
  pythonPath = ensurePythonTemporalio();
}, 300_000);

function python(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('python3', [join(ROOT, 'examples', 'clients', 'start_run.py'), ...args], {
      env: { ...process.env, PYTHONPATH: pythonPath, TEMPORAL_ADDRESS: suite.env.address, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the Python snippet starts a generate run by name and reads the published result shape', async () => {
  await suite.withWorker(async (taskQueue) => {
    const workflowId = `${taskQueue}-py`;
    const run = await python(['generate', JSON.stringify({ prompt: 'Say hi!', model: 'echo' })], { GROVE_TASK_QUEUE: taskQueue, GROVE_WORKFLOW_ID: workflowId });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { workflowId: id, ...result } = JSON.parse(run.stdout);
    expect(id).toBe(workflowId);
    expect(GenerateResultSchema.parse(result).output).toBe('Echo: Say hi!');
    const sa = (await suite.env.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes;
    expect([sa.get(GroveKind), sa.get(GroveStatus)]).toEqual(['generate', 'succeeded']);
  });
}, 120_000);

test('a bad input from Python fails the run at once, naming the field', async () => {
  await suite.withWorker(async (taskQueue) => {
    const run = await python(['agent', JSON.stringify({ algorithm: 'mcts', prompt: 'x', tools: [] })], { GROVE_TASK_QUEUE: taskQueue });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ status: 'failed', error: { type: 'GroveInvalidInput' } });
    expect(out.error.message).toContain('invalid agent input: tools: Too small');
  });
}, 120_000);
