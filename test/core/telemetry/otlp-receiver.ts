// An OTLP/HTTP receiver on 127.0.0.1 for tests: takes POST /v1/traces with the JSON encoding, decodes the spans
// it carries and keeps every raw body (so a test can search them for what must never be sent).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span, decoded. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** 2 = error (OTLP's STATUS_CODE_ERROR). */
  statusCode: number;
  service: string | undefined;
  /** Start and end, nanoseconds since the epoch. */
  startNano: bigint;
  endNano: bigint;
}

/** A listening receiver. */
export interface OtlpReceiver {
  /** The base URL, as a person would configure it (the exporter adds /v1/traces). */
  endpoint: string;
  spans: ReceivedSpan[];
  bodies: string[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number };
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
}
interface OtlpBody {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function valueOf(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return '';
}

function attributes(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      const body = JSON.parse(text) as OtlpBody;
      for (const rs of body.resourceSpans ?? []) {
        const service = attributes(rs.resource?.attributes)['service.name'];
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId === undefined || s.parentSpanId === '' ? undefined : s.parentSpanId,
              name: s.name,
              kind: s.kind,
              attributes: attributes(s.attributes),
              statusCode: s.status?.code ?? 0,
              service: typeof service === 'string' ? service : undefined,
              startNano: BigInt(s.startTimeUnixNano ?? 0),
              endNano: BigInt(s.endTimeUnixNano ?? 0),
            });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
