import { type Harness, rawPost, startHarness } from './helpers';
import { embedText } from '../../../model-server';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));

describe('POST /v1/embeddings', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('returns deterministic unit vectors (16 dimensions by default) through the SDK base64 path', async () => {
    const r = await h.client.embeddings.create({ model: 'text-embedding-3-small', input: ['apple pie', 'car engine'] });
    expect(r.object).toBe('list');
    expect(r.model).toBe('text-embedding-3-small');
    expect(r.data.map((d) => d.index)).toEqual([0, 1]);
    for (const d of r.data) {
      expect(d.embedding).toHaveLength(16);
      expect(norm(d.embedding)).toBeCloseTo(1, 5);
    }
    expect(r.data[0].embedding).toEqual(embedText('apple pie', 16));
    expect(r.usage).toEqual({ prompt_tokens: 3 + 3, total_tokens: 6 });
    const again = await h.client.embeddings.create({ model: 'text-embedding-3-small', input: 'apple pie' });
    expect(again.data[0].embedding).toEqual(r.data[0].embedding);
  });

  it('gives the same numbers with encoding_format float, and honours dimensions', async () => {
    const f = await h.client.embeddings.create({ model: 'm', input: 'apple pie', encoding_format: 'float', dimensions: 8 });
    expect(f.data[0].embedding).toEqual(embedText('apple pie', 8));
    const b = await h.client.embeddings.create({ model: 'm', input: 'apple pie', dimensions: 8 });
    expect(b.data[0].embedding).toEqual(f.data[0].embedding);
  });

  it('puts texts that share words closer than unrelated texts', () => {
    const a = embedText('the juicy red apple', 64);
    const b = embedText('a red apple', 64);
    const c = embedText('quantum chromodynamics lecture', 64);
    expect(cos(a, b)).toBeGreaterThan(cos(a, c));
    expect(embedText('apple', 64)).not.toEqual(embedText('apple!', 64));
  });

  it('rejects a bad request with the OpenAI envelope', async () => {
    const r = await rawPost(`${h.server.baseURL}/embeddings`, { model: 'm', input: 'x', dimensions: 0 });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ param: 'dimensions', type: 'invalid_request_error' });
    const missing = await rawPost(`${h.server.baseURL}/embeddings`, { model: 'm' });
    expect(missing.json.error).toMatchObject({ param: 'input', code: 'missing_required_parameter' });
  });
});
