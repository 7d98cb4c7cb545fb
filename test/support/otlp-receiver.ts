import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A local OTLP/HTTP receiver for tests (no collector binary can be installed here): it takes
 * `POST /v1/traces` and `POST /v1/metrics` in both encodings — protobuf
 * (`application/x-protobuf`) and JSON (`application/json`) — and keeps what it decoded.
 *
 * Protobuf is read with the OpenTelemetry packages' own reader (`ProtobufReader` of
 * @opentelemetry/otlp-transformer, which this release uses for OTLP responses and does not
 * export for requests) following the field numbers of opentelemetry-proto's trace.proto and
 * metrics.proto; test/telemetry/otlp-receiver.test.ts checks it against the same package's
 * `ProtobufTraceSerializer` and `JsonTraceSerializer`: both encodings of one set of spans must
 * decode to the same thing.
 */

/** One span as received, ids in lowercase hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, unknown>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  scope: string;
}

/** One metric as received: its name and its data points' attributes and values (sum: value; histogram: count). */
export interface ReceivedMetric {
  name: string;
  points: { attributes: Record<string, unknown>; value: number }[];
}

export interface OtlpReceiver {
  /** The base URL (`HOOKGATE_OTLP_ENDPOINT`). */
  url: string;
  spans: ReceivedSpan[];
  metrics: ReceivedMetric[];
  /** Content types of the requests received, in order. */
  contentTypes: string[];
  /** The headers of each request received, in order. */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

interface Reader {
  pos: number;
  isAtEnd(): boolean;
  readTag(): { fieldNumber: number; wireType: number };
  readVarint(): number;
  readBytes(): Uint8Array;
  readString(): string;
  skip(wireType: number): void;
}
type ReaderClass = new (buf: Uint8Array) => Reader;

const require = createRequire(import.meta.url);
// Not in the package's exports map: loaded by its file, next to the package's entry point (the
// 0.2xx line, which still installs on Node 20, ships CommonJS as .js under build/src).
const { ProtobufReader } = require(
  join(dirname(require.resolve('@opentelemetry/otlp-transformer')), 'common/protobuf/protobuf-reader.js'),
) as {
  ProtobufReader: ReaderClass;
};

/** Calls `onField` for each field of one message. */
function fields(
  bytes: Uint8Array,
  onField: (field: number, reader: Reader, wireType: number, bytes: Uint8Array) => boolean | void,
): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (onField(fieldNumber, reader, wireType, bytes) !== true) reader.skip(wireType);
  }
}

function fixed64(reader: Reader, bytes: Uint8Array): bigint {
  const value = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getBigUint64(0, true);
  reader.pos += 8;
  return value;
}

function double(reader: Reader, bytes: Uint8Array): number {
  const value = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getFloat64(0, true);
  reader.pos += 8;
  return value;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function anyValue(bytes: Uint8Array): unknown {
  let value: unknown = null;
  fields(bytes, (field, reader, _wire, buf) => {
    if (field === 1) value = reader.readString();
    else if (field === 2) value = reader.readVarint() !== 0;
    else if (field === 3) value = reader.readVarint();
    else if (field === 4) value = double(reader, buf);
    else if (field === 5) {
      const items: unknown[] = [];
      fields(reader.readBytes(), (f, r) => {
        if (f !== 1) return false;
        items.push(anyValue(r.readBytes()));
        return true;
      });
      value = items;
    } else return false;
    return true;
  });
  return value;
}

function keyValue(bytes: Uint8Array, into: Record<string, unknown>): void {
  let key = '';
  let value: unknown = null;
  fields(bytes, (field, reader) => {
    if (field === 1) key = reader.readString();
    else if (field === 2) value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  into[key] = value;
}

function attributesOfMessage(bytes: Uint8Array, attributeField: number): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  fields(bytes, (field, reader) => {
    if (field !== attributeField) return false;
    keyValue(reader.readBytes(), attributes);
    return true;
  });
  return attributes;
}

/** ExportTraceServiceRequest (protobuf) → spans. */
export function decodeTraceProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  fields(body, (field, reader) => {
    if (field !== 1) return false; // resource_spans
    let resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    fields(reader.readBytes(), (f, r) => {
      if (f === 1) resource = attributesOfMessage(r.readBytes(), 1);
      else if (f === 2) scopes.push(r.readBytes());
      else return false;
      return true;
    });
    for (const scopeSpans of scopes) {
      let scope = '';
      fields(scopeSpans, (f, r) => {
        if (f === 1) {
          fields(r.readBytes(), (sf, sr) => {
            if (sf !== 1) return false;
            scope = sr.readString();
            return true;
          });
        } else if (f === 2) spans.push(decodeSpan(r.readBytes(), resource, scope));
        else return false;
        return true;
      });
    }
    return true;
  });
  return spans;
}

function decodeSpan(bytes: Uint8Array, resource: Record<string, unknown>, scope: string): ReceivedSpan {
  const span: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: {},
    status: { code: 0 },
    resource,
    scope,
  };
  fields(bytes, (field, reader, _wire, buf) => {
    switch (field) {
      case 1:
        span.traceId = hex(reader.readBytes());
        return true;
      case 2:
        span.spanId = hex(reader.readBytes());
        return true;
      case 4:
        span.parentSpanId = hex(reader.readBytes());
        return true;
      case 5:
        span.name = reader.readString();
        return true;
      case 6:
        span.kind = reader.readVarint();
        return true;
      case 7:
        span.startTimeUnixNano = fixed64(reader, buf);
        return true;
      case 8:
        span.endTimeUnixNano = fixed64(reader, buf);
        return true;
      case 9:
        keyValue(reader.readBytes(), span.attributes);
        return true;
      case 15:
        fields(reader.readBytes(), (f, r) => {
          if (f === 2) span.status.message = r.readString();
          else if (f === 3) span.status.code = r.readVarint();
          else return false;
          return true;
        });
        return true;
      default:
        return false;
    }
  });
  return span;
}

/** ExportMetricsServiceRequest (protobuf) → metrics (sums and histograms). */
export function decodeMetricsProtobuf(body: Uint8Array): ReceivedMetric[] {
  const metrics: ReceivedMetric[] = [];
  const each = (bytes: Uint8Array, field: number, fn: (b: Uint8Array) => void) =>
    fields(bytes, (f, r) => {
      if (f !== field) return false;
      fn(r.readBytes());
      return true;
    });
  each(body, 1, (resourceMetrics) =>
    each(resourceMetrics, 2, (scopeMetrics) =>
      each(scopeMetrics, 2, (metric) => {
        const received: ReceivedMetric = { name: '', points: [] };
        fields(metric, (f, r) => {
          if (f === 1) received.name = r.readString();
          else if (f === 7)
            each(r.readBytes(), 1, (point) => received.points.push(numberPoint(point))); // sum
          else if (f === 9)
            each(r.readBytes(), 1, (point) => received.points.push(histogramPoint(point))); // histogram
          else return false;
          return true;
        });
        metrics.push(received);
      }),
    ),
  );
  return metrics;
}

function numberPoint(bytes: Uint8Array): ReceivedMetric['points'][number] {
  const attributes = attributesOfMessage(bytes, 7);
  let value = 0;
  fields(bytes, (f, r, _w, buf) => {
    if (f === 4) value = double(r, buf);
    else if (f === 6) value = Number(fixed64(r, buf));
    else return false;
    return true;
  });
  return { attributes, value };
}

function histogramPoint(bytes: Uint8Array): ReceivedMetric['points'][number] {
  const attributes = attributesOfMessage(bytes, 9);
  let value = 0;
  fields(bytes, (f, r, _w, buf) => {
    if (f !== 4) return false;
    value = Number(fixed64(r, buf));
    return true;
  });
  return { attributes, value };
}

type JsonKeyValue = { key: string; value: JsonAnyValue };
type JsonAnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
};

function jsonValue(value: JsonAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return null;
}

const jsonAttributes = (list: JsonKeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
/** OTLP/JSON ids are hex strings (the spec's exception to proto3's base64 for bytes). */
const jsonId = (id: string | undefined) => (id ?? '').toLowerCase();

/** ExportTraceServiceRequest (OTLP/JSON) → spans. */
export function decodeTraceJson(body: Uint8Array): ReceivedSpan[] {
  const request = JSON.parse(new TextDecoder().decode(body)) as {
    resourceSpans?: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: { scope?: { name?: string }; spans?: Record<string, unknown>[] }[];
    }[];
  };
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const s of scopeSpans.spans ?? []) {
        const status = (s.status ?? {}) as { code?: number; message?: string };
        spans.push({
          traceId: jsonId(s.traceId as string),
          spanId: jsonId(s.spanId as string),
          parentSpanId: jsonId(s.parentSpanId as string | undefined),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          startTimeUnixNano: BigInt(s.startTimeUnixNano as string),
          endTimeUnixNano: BigInt(s.endTimeUnixNano as string),
          attributes: jsonAttributes(s.attributes as JsonKeyValue[]),
          status: { code: status.code ?? 0, ...(status.message ? { message: status.message } : {}) },
          resource,
          scope: scopeSpans.scope?.name ?? '',
        });
      }
    }
  }
  return spans;
}

/** ExportMetricsServiceRequest (OTLP/JSON) → metrics (sums and histograms). */
export function decodeMetricsJson(body: Uint8Array): ReceivedMetric[] {
  type Point = { attributes?: JsonKeyValue[]; asInt?: string | number; asDouble?: number; count?: string | number };
  const request = JSON.parse(new TextDecoder().decode(body)) as {
    resourceMetrics?: {
      scopeMetrics?: { metrics?: { name: string; sum?: { dataPoints?: Point[] }; histogram?: { dataPoints?: Point[] } }[] }[];
    }[];
  };
  const metrics: ReceivedMetric[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const points = [
          ...(m.sum?.dataPoints ?? []).map((p) => ({
            attributes: jsonAttributes(p.attributes),
            value: Number(p.asInt ?? p.asDouble ?? 0),
          })),
          ...(m.histogram?.dataPoints ?? []).map((p) => ({
            attributes: jsonAttributes(p.attributes),
            value: Number(p.count ?? 0),
          })),
        ];
        metrics.push({ name: m.name, points });
      }
    }
  }
  return metrics;
}

/**
 * Starts the receiver on 127.0.0.1 (a free port). It answers 200 with an empty
 * Export*ServiceResponse in the request's encoding, or 400 naming what it could not decode.
 *
 * @example
 * const otlp = await startOtlpReceiver();
 * // hookgate dev --otlp otlp.url …
 * await until(() => otlp.spans.length > 0);
 * await otlp.close();
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: Omit<OtlpReceiver, 'url' | 'close'> = { spans: [], metrics: [], contentTypes: [], headers: [] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        let body: Uint8Array = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const type = String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim();
        const json = type === 'application/json';
        if (!json && type !== 'application/x-protobuf') throw new Error(`unexpected content-type ${type}`);
        receiver.contentTypes.push(type);
        receiver.headers.push({ ...request.headers });
        if (request.method === 'POST' && request.url === '/v1/traces')
          receiver.spans.push(...(json ? decodeTraceJson(body) : decodeTraceProtobuf(body)));
        else if (request.method === 'POST' && request.url === '/v1/metrics')
          receiver.metrics.push(...(json ? decodeMetricsJson(body) : decodeMetricsProtobuf(body)));
        else {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { 'content-type': type }).end(json ? '{}' : Buffer.alloc(0));
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String((error as Error).message));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
