import { describeTelemetry, TelemetryConfigError, telemetrySettingsFromEnv } from '../../../activities/telemetry/otel-settings';

test('nothing configured, or the SDK disabled: nothing to export', () => {
  expect(telemetrySettingsFromEnv({})).toBeUndefined();
  expect(telemetrySettingsFromEnv({ OTEL_SERVICE_NAME: 'checkout', OTEL_RESOURCE_ATTRIBUTES: 'team=payments' })).toBeUndefined();
  expect(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  expect(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
});

test('one endpoint: traces and metrics to its signal paths, OTLP/protobuf, the defaults', () => {
  const settings = telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })!;
  expect(settings.traces).toMatchObject({ url: 'http://collector:4318/v1/traces', protocol: 'http/protobuf', headers: {}, timeoutMs: 10_000, compression: 'none', sampler: 'parentbased_always_on', samplerRatio: 1 });
  expect(settings.metrics).toMatchObject({ url: 'http://collector:4318/v1/metrics', intervalMs: 60_000, temporality: 'cumulative' });
  expect(settings).toMatchObject({ serviceName: 'grove', captureContent: false });
  expect(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/otlp' })!.traces!.url).toBe('https://otel.example.com/otlp/v1/traces');
});

test("a signal's own endpoint is used as is; a signal can be on alone or turned off", () => {
  const traces = telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/custom/traces' })!;
  expect(traces.traces!.url).toBe('http://tempo:4318/custom/traces');
  expect(traces.metrics).toBeUndefined();
  const metrics = telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })!;
  expect(metrics.traces).toBeUndefined();
  expect(metrics.metrics!.url).toBe('http://c:4318/v1/metrics');
  // Asked for by name without an endpoint: the collector's default port on this host.
  expect(telemetrySettingsFromEnv({ OTEL_METRICS_EXPORTER: 'otlp' })!.metrics!.url).toBe('http://localhost:4318/v1/metrics');
});

test('headers, protocol, timeout and compression: the signal-specific variable wins', () => {
  const settings = telemetrySettingsFromEnv({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Basic%20dXNlcjpwYXNz, x-tenant = acme',
    OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-tenant=metrics-team',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/PROTOBUF',
    OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
    OTEL_EXPORTER_OTLP_METRICS_COMPRESSION: 'gzip',
    OTEL_METRIC_EXPORT_INTERVAL: '1000',
    OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta',
  })!;
  expect(settings.traces).toMatchObject({ protocol: 'http/protobuf', headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-tenant': 'acme' }, timeoutMs: 2500, compression: 'none' });
  expect(settings.metrics).toMatchObject({ protocol: 'http/json', headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-tenant': 'metrics-team' }, compression: 'gzip', intervalMs: 1000, temporality: 'delta' });
});

test('service name, resource attributes, sampler and content capture', () => {
  const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  expect(telemetrySettingsFromEnv({ ...base, OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,deployment.environment=prod%20eu' })).toMatchObject({
    serviceName: 'from-attrs',
    resourceAttributes: { 'service.name': 'from-attrs', 'deployment.environment': 'prod eu' },
  });
  expect(telemetrySettingsFromEnv({ ...base, OTEL_SERVICE_NAME: 'agents', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other' })!.serviceName).toBe('agents');
  expect(telemetrySettingsFromEnv({ ...base, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })!.traces).toMatchObject({ sampler: 'parentbased_traceidratio', samplerRatio: 0.25 });
  for (const [value, on] of [['true', true], ['TRUE', true], ['SPAN_ONLY', true], ['false', false], ['NO_CONTENT', false]] as const) {
    expect(telemetrySettingsFromEnv({ ...base, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: value })!.captureContent).toBe(on);
  }
});

test('what grove cannot use is refused in one line naming the variable, never echoing a credential', () => {
  const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  const refused = (env: Record<string, string>) => {
    try {
      telemetrySettingsFromEnv(env);
    } catch (err) {
      expect(err).toBeInstanceOf(TelemetryConfigError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refused({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(/^OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: grove exports OTLP over HTTP/);
  expect(refused({ ...base, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' })).toMatch(/^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=thrift is invalid/);
  expect(refused({ ...base, OTEL_TRACES_EXPORTER: 'zipkin' })).toMatch(/^OTEL_TRACES_EXPORTER=zipkin is not supported/);
  expect(refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http/);
  expect(refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT is not a URL/);
  expect(refused({ ...base, OTEL_TRACES_SAMPLER_ARG: '2' })).toMatch(/^OTEL_TRACES_SAMPLER_ARG=2 is invalid/);
  expect(refused({ ...base, OTEL_METRIC_EXPORT_INTERVAL: 'soon' })).toMatch(/^OTEL_METRIC_EXPORT_INTERVAL=soon is invalid/);
  expect(refused({ ...base, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'maybe' })).toMatch(/must be true or false/);
  const withPassword = refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:hunter2-secret@otel.example.com' });
  expect(withPassword).toMatch(/has credentials in it: put them in OTEL_EXPORTER_OTLP_HEADERS/);
  expect(withPassword).not.toContain('hunter2');
  const badHeaders = refused({ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'tokenwithoutequals-s3cr3t' });
  expect(badHeaders).toBe('OTEL_EXPORTER_OTLP_HEADERS must be a list of key=value pairs separated by commas');
});

test('a worker says in one line what goes where, and whether content is recorded', () => {
  const settings = telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc123456789' })!;
  const line = describeTelemetry(settings);
  expect(line).toBe('OpenTelemetry: traces to http://c:4318/v1/traces, metrics to http://c:4318/v1/metrics (service grove; prompts and completions not recorded)');
});
