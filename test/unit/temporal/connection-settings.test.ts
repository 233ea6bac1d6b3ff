import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUrl, temporalSettings } from '../../../temporal/connection-options';

const none = { HOME: '/nonexistent-home' }; // no config file

test('nothing configured: the local dev server, its port and UI port from GROVE_*', () => {
  expect(temporalSettings(none)).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', local: true, uiUrl: 'http://127.0.0.1:8233' });
  const custom = temporalSettings({ ...none, GROVE_TEMPORAL_PORT: '7633' });
  expect(custom).toMatchObject({ address: '127.0.0.1:7633', source: 'from GROVE_TEMPORAL_PORT', uiUrl: 'http://127.0.0.1:8633' });
  expect(temporalSettings({ ...none, GROVE_TEMPORAL_PORT: '7633', GROVE_UI_PORT: '9000' }).uiUrl).toBe('http://127.0.0.1:9000');
  expect(() => temporalSettings({ ...none, GROVE_TEMPORAL_PORT: 'seven' })).toThrow('GROVE_TEMPORAL_PORT=seven is not a port number');
});

test('TEMPORAL_* variables and config-file profiles, with what chose the address', () => {
  expect(temporalSettings({ ...none, TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_NAMESPACE: 'prod' })).toMatchObject({
    address: 'temporal.internal:7233',
    namespace: 'prod',
    source: 'from TEMPORAL_ADDRESS',
    local: false,
    uiUrl: undefined,
  });
  const cloud = temporalSettings({ ...none, TEMPORAL_ADDRESS: 'my-ns.a1b2c.tmprl.cloud:7233', TEMPORAL_API_KEY: 'key' });
  expect(cloud).toMatchObject({ apiKey: 'key', tls: true, uiUrl: 'https://cloud.temporal.io' });
  expect(runUrl(cloud, 'run 1')).toBe('https://cloud.temporal.io/namespaces/default/workflows/run%201');

  const file = join(mkdtempSync(join(tmpdir(), 'grove-envconfig-')), 'temporal.toml');
  writeFileSync(file, '[profile.default]\naddress = "a.example:7233"\n\n[profile.staging]\naddress = "b.example:7233"\nnamespace = "staging"\n');
  expect(temporalSettings({ ...none, TEMPORAL_CONFIG_FILE: file })).toMatchObject({ address: 'a.example:7233', source: `from profile "default" in ${file}` });
  expect(temporalSettings({ ...none, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' })).toMatchObject({ address: 'b.example:7233', namespace: 'staging' });
  // Variables override the profile, as Temporal's own SDKs and CLI do.
  expect(temporalSettings({ ...none, TEMPORAL_CONFIG_FILE: file, TEMPORAL_ADDRESS: 'c.example:7233' })).toMatchObject({ address: 'c.example:7233', source: 'from TEMPORAL_ADDRESS' });
  expect(temporalSettings({ ...none, TEMPORAL_CONFIG_FILE: file, GROVE_UI_URL: 'https://temporal-ui.internal' }).uiUrl).toBe('https://temporal-ui.internal');
});
