import { z } from 'zod';

/**
 * What grove exports by OpenTelemetry, read from the standard `OTEL_*` variables. Nothing here
 * loads an OpenTelemetry package: a process whose environment turns telemetry off never loads
 * one (see `groveTelemetry`).
 */
export interface TelemetrySettings {
  traces?: TracesSettings;
  metrics?: MetricsSettings;
  /** `service.name`: `OTEL_SERVICE_NAME`, else `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, else `grove`. */
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, decoded. */
  resourceAttributes: Record<string, string>;
  /**
   * Record prompts, completions, tool arguments and results, and evaluators' reasoning on spans
   * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). Off by default: they may hold
   * secrets and personal data.
   */
  captureContent: boolean;
}

/** Where and how one signal is sent: OTLP over HTTP. */
export interface OtlpSettings {
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with each export (collector credentials): never logged, never in an error. */
  headers: Record<string, string>;
  timeoutMs: number;
  compression: 'none' | 'gzip';
}

export interface TracesSettings extends OtlpSettings {
  sampler: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
  /** The ratio of `traceidratio` samplers, 0 to 1. */
  samplerRatio: number;
}

export interface MetricsSettings extends OtlpSettings {
  intervalMs: number;
  temporality: 'cumulative' | 'delta' | 'lowmemory';
}

/** A variable grove cannot use; the message names it (and never echoes a header's value). */
export class TelemetryConfigError extends Error {
  override name = 'TelemetryConfigError';
}

/** The collector's port for OTLP over HTTP, when only `OTEL_TRACES_EXPORTER=otlp` asks for one. */
const DEFAULT_ENDPOINT = 'http://localhost:4318';
const SIGNAL_PATHS = { TRACES: 'v1/traces', METRICS: 'v1/metrics' } as const;
type Signal = keyof typeof SIGNAL_PATHS;

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
const positiveMs = z.coerce.number().int().positive();

/**
 * Telemetry settings from the environment, or `undefined` when nothing is to be exported. A
 * signal is on when its endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `_METRICS_ENDPOINT`) or when `OTEL_TRACES_EXPORTER` /
 * `OTEL_METRICS_EXPORTER` says `otlp` (then to `http://localhost:4318`); `none` turns one off,
 * `OTEL_SDK_DISABLED=true` turns both off. grove speaks OTLP over HTTP (`http/protobuf`, the
 * default, or `http/json`).
 *
 * @example
 * telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.traces?.url
 * // 'http://collector:4318/v1/traces'
 * telemetrySettingsFromEnv({}) // undefined: nothing configured, nothing exported
 */
export function telemetrySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TelemetrySettings | undefined {
  const value = (name: string) => (env[name] === undefined || env[name]!.trim() === '' ? undefined : env[name]!.trim());
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const traces = signal(value, 'TRACES');
  const metrics = signal(value, 'METRICS');
  if (!traces && !metrics) return undefined;
  const resourceAttributes = keyValueList(value('OTEL_RESOURCE_ATTRIBUTES'), 'OTEL_RESOURCE_ATTRIBUTES', false);
  const ratio = value('OTEL_TRACES_SAMPLER_ARG');
  return {
    traces: traces && {
      ...traces,
      sampler: parse('OTEL_TRACES_SAMPLER', z.enum(SAMPLERS), value('OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on'),
      samplerRatio: ratio === undefined ? 1 : parse('OTEL_TRACES_SAMPLER_ARG', z.coerce.number().min(0).max(1), ratio),
    },
    metrics: metrics && {
      ...metrics,
      intervalMs: parse('OTEL_METRIC_EXPORT_INTERVAL', positiveMs, value('OTEL_METRIC_EXPORT_INTERVAL') ?? 60_000),
      temporality: parse(
        'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE',
        z.enum(['cumulative', 'delta', 'lowmemory']),
        value('OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE')?.toLowerCase() ?? 'cumulative',
      ),
    },
    serviceName: value('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'grove',
    resourceAttributes,
    captureContent: captureContent(value('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')),
  };
}

/** One signal's exporter settings, or undefined when it is off. */
function signal(value: (name: string) => string | undefined, name: Signal): OtlpSettings | undefined {
  const exporterVar = `OTEL_${name}_EXPORTER`;
  const exporters = (value(exporterVar) ?? '').toLowerCase().split(',').map((e) => e.trim()).filter(Boolean);
  const unknown = exporters.filter((e) => e !== 'otlp' && e !== 'none');
  if (unknown.length > 0) throw new TelemetryConfigError(`${exporterVar}=${unknown.join(',')} is not supported: grove exports "otlp" (OTLP over HTTP) or "none"`);
  if (exporters.includes('none')) return undefined;
  const own = value(`OTEL_EXPORTER_OTLP_${name}_ENDPOINT`);
  const shared = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (own === undefined && shared === undefined && !exporters.includes('otlp')) return undefined;
  // The signal's own variable wins over the shared one; errors name the one that was set.
  const setting = <S extends z.ZodType>(key: string, schema: S, fallback: string | number) => {
    const ownName = `OTEL_EXPORTER_OTLP_${name}_${key}`;
    const varName = value(ownName) !== undefined ? ownName : `OTEL_EXPORTER_OTLP_${key}`;
    const raw = value(varName);
    if (key === 'PROTOCOL' && raw?.toLowerCase() === 'grpc') {
      throw new TelemetryConfigError(`${varName}=grpc is not supported: grove exports OTLP over HTTP (http/protobuf or http/json), which a collector receives on port 4318`);
    }
    return parse(varName, schema, typeof raw === 'string' && key !== 'TIMEOUT' ? raw.toLowerCase() : (raw ?? fallback));
  };
  return {
    url: own !== undefined ? endpoint(own, `OTEL_EXPORTER_OTLP_${name}_ENDPOINT`) : withPath(endpoint(shared ?? DEFAULT_ENDPOINT, 'OTEL_EXPORTER_OTLP_ENDPOINT'), SIGNAL_PATHS[name]),
    protocol: setting('PROTOCOL', z.enum(['http/protobuf', 'http/json']), 'http/protobuf'),
    headers: {
      ...keyValueList(value('OTEL_EXPORTER_OTLP_HEADERS'), 'OTEL_EXPORTER_OTLP_HEADERS', true),
      ...keyValueList(value(`OTEL_EXPORTER_OTLP_${name}_HEADERS`), `OTEL_EXPORTER_OTLP_${name}_HEADERS`, true),
    },
    timeoutMs: setting('TIMEOUT', positiveMs, 10_000),
    compression: setting('COMPRESSION', z.enum(['none', 'gzip']), 'none'),
  };
}

/** An http(s) URL without credentials (a URL ends up in logs and errors: credentials go in the headers). */
function endpoint(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TelemetryConfigError(`${name} is not a URL (expected e.g. http://localhost:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TelemetryConfigError(`${name} must be an http:// or https:// URL, got ${url.protocol}`);
  if (url.username || url.password) {
    throw new TelemetryConfigError(`${name} has credentials in it: put them in OTEL_EXPORTER_OTLP_HEADERS (e.g. authorization=Basic%20...) instead`);
  }
  return url.toString();
}

/** The signal's path appended to the base endpoint, as the OTLP exporter specification says. */
function withPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}

/** `key1=value1,key2=value2` with percent-encoded values (W3C baggage format, as `OTEL_*_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` use). */
function keyValueList(text: string | undefined, name: string, secret: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (text ?? '').split(',')) {
    if (item.trim() === '') continue;
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!key) throw new TelemetryConfigError(`${name} must be a list of key=value pairs separated by commas${secret ? '' : `; "${item.trim()}" is not one`}`);
    try {
      out[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      throw new TelemetryConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
    }
  }
  return out;
}

function captureContent(text: string | undefined): boolean {
  if (text === undefined) return false;
  const v = text.toLowerCase();
  if (v === 'true' || v === 'span_only' || v === 'span_and_event') return true;
  if (v === 'false' || v === 'no_content' || v === 'event_only') return false;
  throw new TelemetryConfigError(`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT must be true or false, got ${text}`);
}

function parse<S extends z.ZodType>(name: string, schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new TelemetryConfigError(`${name}=${String(raw)} is invalid: ${result.error.issues[0]!.message}`);
}

/**
 * One line on what is exported where (no header values), for a worker's start.
 *
 * @example
 * describeTelemetry(settings) // 'OpenTelemetry: traces to http://localhost:4318/v1/traces, metrics to http://localhost:4318/v1/metrics (service grove; prompts and completions not recorded)'
 */
export function describeTelemetry(settings: TelemetrySettings): string {
  const to = [settings.traces && `traces to ${settings.traces.url}`, settings.metrics && `metrics to ${settings.metrics.url}`].filter(Boolean).join(', ');
  return `OpenTelemetry: ${to} (service ${settings.serviceName}; prompts and completions ${settings.captureContent ? 'RECORDED' : 'not recorded'})`;
}
