import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * The OTLP messages, compiled from the OpenTelemetry proto definitions (opentelemetry-proto, as
 * shipped by @opentelemetry/otlp-transformer): the receiver decodes with these, not by guessing.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const proto = require('@opentelemetry/otlp-transformer/build/src/generated/root').opentelemetry.proto;
const TraceRequest = proto.collector.trace.v1.ExportTraceServiceRequest;
const MetricsRequest = proto.collector.metrics.v1.ExportMetricsServiceRequest;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code: number; message: string };
  resource: Record<string, unknown>;
  scope: string;
}

export interface ReceivedPoint {
  attributes: Record<string, unknown>;
  /** Histograms: how many values were recorded, and their sum. */
  count?: number;
  sum?: number;
  /** Sums (counters). */
  value?: number;
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  kind: 'histogram' | 'sum' | 'gauge' | 'other';
  points: ReceivedPoint[];
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base endpoint, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  spans: ReceivedSpan[];
  /** Every metric data export, in arrival order (cumulative exports repeat a series: read the latest). */
  metrics: ReceivedMetric[];
  /** Every request body as received (decompressed), for searching the raw bytes. */
  bodies: Buffer[];
  /** Requests by path and content type, e.g. `POST /v1/traces application/x-protobuf`. */
  requests: string[];
  /** Each request's HTTP headers. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP receiver on a free local port: accepts `/v1/traces` and `/v1/metrics` in
 * protobuf (`application/x-protobuf`) or JSON (`application/json`), gzip or not, decodes them
 * with the OTLP message definitions, and answers as a collector does.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpReceiver = { url: '', spans: [], metrics: [], bodies: [], requests: [], headers: [], close: async () => {} };
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!;
      received.requests.push(`${req.method} ${req.url} ${type}`);
      received.headers.push(req.headers);
      received.bodies.push(body);
      const json = type === 'application/json';
      try {
        if (req.method === 'POST' && req.url === '/v1/traces') received.spans.push(...spansOf(decode(TraceRequest, body, json)));
        else if (req.method === 'POST' && req.url === '/v1/metrics') received.metrics.push(...metricsOf(decode(MetricsRequest, body, json)));
        else {
          res.writeHead(404).end();
          return;
        }
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`cannot decode: ${(err as Error).message}`);
        return;
      }
      res.writeHead(200, { 'content-type': type || 'application/x-protobuf' }).end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  received.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  received.close = () => new Promise((resolve) => server.close(() => resolve()));
  return received;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A request message from protobuf bytes, or from OTLP/JSON (whose trace and span ids are hex,
 * where the message definitions' JSON mapping expects base64).
 */
function decode(type: { decode(b: Buffer): unknown; fromObject(o: unknown): unknown; toObject(m: unknown, o: object): unknown }, body: Buffer, json: boolean): any {
  const message = json ? type.fromObject(hexIdsToBase64(JSON.parse(body.toString('utf8')))) : type.decode(body);
  return type.toObject(message, { longs: Number, bytes: Buffer, defaults: true, arrays: true, oneofs: true });
}

function hexIdsToBase64(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIdsToBase64);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, /^(traceId|spanId|parentSpanId)$/.test(k) && typeof v === 'string' ? Buffer.from(v, 'hex').toString('base64') : hexIdsToBase64(v)]),
  );
}

function spansOf(request: any): ReceivedSpan[] {
  return request.resourceSpans.flatMap((rs: any) =>
    rs.scopeSpans.flatMap((ss: any) =>
      ss.spans.map((s: any) => ({
        traceId: hex(s.traceId),
        spanId: hex(s.spanId),
        parentSpanId: hex(s.parentSpanId),
        name: s.name,
        kind: s.kind,
        attributes: attributesOf(s.attributes),
        events: s.events.map((e: any) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
        status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
        resource: attributesOf(rs.resource?.attributes ?? []),
        scope: ss.scope?.name ?? '',
      })),
    ),
  );
}

function metricsOf(request: any): ReceivedMetric[] {
  return request.resourceMetrics.flatMap((rm: any) =>
    rm.scopeMetrics.flatMap((sm: any) =>
      sm.metrics.map((m: any) => {
        const kind = m.histogram ? 'histogram' : m.sum ? 'sum' : m.gauge ? 'gauge' : 'other';
        const points = (m.histogram ?? m.sum ?? m.gauge)?.dataPoints ?? [];
        return {
          name: m.name,
          unit: m.unit,
          kind,
          resource: attributesOf(rm.resource?.attributes ?? []),
          points: points.map((p: any) => ({
            attributes: attributesOf(p.attributes),
            ...(kind === 'histogram' ? { count: Number(p.count), sum: p.sum } : { value: p.asDouble ?? Number(p.asInt) }),
          })),
        };
      }),
    ),
  );
}

function attributesOf(list: any[]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => [kv.key, anyValue(kv.value)]));
}

function anyValue(v: any): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined && v.value === 'stringValue') return v.stringValue;
  if (v.value === 'boolValue') return v.boolValue;
  if (v.value === 'intValue') return Number(v.intValue);
  if (v.value === 'doubleValue') return v.doubleValue;
  if (v.value === 'arrayValue') return v.arrayValue.values.map(anyValue);
  if (v.value === 'kvlistValue') return attributesOf(v.kvlistValue.values);
  if (v.value === 'bytesValue') return hex(v.bytesValue);
  return undefined;
}

function hex(bytes: Buffer | undefined): string {
  return bytes && bytes.length > 0 ? Buffer.from(bytes).toString('hex') : '';
}
