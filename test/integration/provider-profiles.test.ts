import { integrationSuite } from '../support/integration-suite';
import { colorGameInput } from '../support/inputs';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { groveClient } from '../support/temporal-env';

const suite = integrationSuite('profiles');
/** The scripted server behaving like llama-cpp-python's: content null, json_schema and tool_choice "required" refused, n ignored. */
const llamacpp = () => ({ baseURL: `${suite.model.url}/profile/llamacpp/v1` });

/** The run's history with every payload decoded, to search what activities returned. */
async function historyText(workflowId: string): Promise<string> {
  const history = await suite.env.client.workflow.getHandle(workflowId).fetchHistory();
  return JSON.stringify(history, (key, value) => (key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value));
}

test('airetry on a server that ignores n: the missing samples come from single requests and the activity says so', async () => {
  const { result, history } = await suite.withWorker(async (taskQueue) => {
    const result = await groveClient(suite.env, taskQueue).run('airetry', colorGameInput());
    return { result, history: await historyText(result.workflowId) };
  }, llamacpp());
  expect(result.success).toBe(true);
  expect(result.output).toBe('yellow');
  expect(history).toContain('n=2 emulated by 2 requests');
});

test('extraction on a server without json_schema: json_object with the schema, validated by grove', async () => {
  const result = await suite.withWorker(
    (taskQueue) =>
      groveClient(suite.env, taskQueue).run('airetry', {
        prompt: 'apple',
        model: 'echo',
        kind: 'extract',
        schema: { type: 'object', properties: { echo: { type: 'string' } }, required: ['echo'] },
        checks: [{ kind: 'jsonSchema', schema: { type: 'object', required: ['echo'] } }],
      }),
    llamacpp(),
  );
  expect([result.success, result.output]).toEqual([true, { echo: 'apple' }]);
});

test('an MCTS search with tools and the LLM evaluator finishes on llama.cpp’s refusals (every search failed at its second step before)', async () => {
  const { result, history } = await suite.withWorker(async (taskQueue) => {
    const result = await groveClient(suite.env, taskQueue).run('agent', quickstartInput({ budget: { maxCalls: 60 }, seed: 1 }));
    return { result, history: await historyText(result.workflowId) };
  }, llamacpp());
  expect(result.isSolution).toBe(true);
  expect(history).toContain('emptyContentForToolCalls: the server refused the request (500: can only concatenate str');
});
