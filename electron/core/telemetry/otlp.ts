// Tracing to an OTLP/HTTP collector with the official OpenTelemetry SDK: spans are batched and sent as OTLP JSON
// to `<endpoint>/v1/traces`. An export that fails is reported (once, and again after one succeeds), never dropped
// silently; the endpoint is checked before anything starts.
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { tracesUrl } from './traces-url.js';
import { TracerTelemetry } from './tracer-telemetry.js';

export { TRACES_PATH, tracesUrl } from './traces-url.js';

/** How the OTLP tracer is set up. */
export interface OtlpOptions {
  /** The collector's base URL (`http://host:4318`) or its traces URL (ending in /v1/traces). */
  endpoint: string;
  /** Reported as service.version. */
  version: string;
  /** Which shell runs the core (service.instance role). */
  mode: string;
  /** Where export failures are told. */
  report(text: string): void;
  /** Batch delay (tests shorten it; the shutdown flushes regardless). */
  scheduledDelayMs?: number;
}

/** Forwards to the exporter and reports failures: the first one, then the first after each success. */
class ReportingExporter implements SpanExporter {
  readonly #inner: SpanExporter;
  readonly #report: (text: string) => void;
  #failing = false;
  constructor(inner: SpanExporter, report: (text: string) => void) {
    this.#inner = inner;
    this.#report = report;
  }
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.#inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.#failing = false;
      else if (!this.#failing) {
        this.#failing = true;
        const why = result.error?.message ? `: ${result.error.message.slice(0, 200)}` : '';
        this.#report(`Traces could not be sent to the OTLP endpoint (${spans.length} span(s) lost)${why}`);
      }
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Tracing that exports to the endpoint. */
export function createOtlpTelemetry(opts: OtlpOptions): TracerTelemetry {
  const url = tracesUrl(opts.endpoint);
  const exporter = new ReportingExporter(new OTLPTraceExporter({ url, timeoutMillis: 10_000 }), opts.report);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: 'switchboard',
      [ATTR_SERVICE_VERSION]: opts.version,
      'switchboard.mode': opts.mode,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: opts.scheduledDelayMs ?? 2000 })],
  });
  const tracer = provider.getTracer('switchboard', opts.version);
  return new TracerTelemetry(tracer, async () => {
    // A failed export was reported by the exporter; the shutdown goes on without it.
    await provider.forceFlush().catch(() => undefined);
    await provider.shutdown().catch(() => undefined);
  });
}
