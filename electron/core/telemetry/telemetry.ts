// The core's tracing port: spans with MCP attributes, off unless an OTLP endpoint is configured. It imports nothing
// of OpenTelemetry: the tracer over the SDK (tracer-telemetry.ts) is loaded only when tracing is on.
import { AppError } from '../../../shared/errors.js';

/** Attribute values a span may carry: never argument values, secrets or free text from a server. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** What a span is, in OpenTelemetry's terms. */
export type SpanRole = 'internal' | 'client' | 'server';

/** One span, as the core's code sees it. */
export interface SpanHandle {
  /** Adds attributes (undefined values are skipped). */
  set(attributes: SpanAttributes): void;
  /** Marks the span failed with a short error class (an error code, never a message). */
  fail(errorType: string): void;
  /** Ends the span (later calls do nothing). */
  end(): void;
}

/** Tracing as the core uses it. */
export interface Telemetry {
  /** False when no endpoint is set: nothing is recorded and no wrapper is installed. */
  readonly enabled: boolean;
  /** Runs `fn` inside a new span, child of the current one; the span ends when `fn` settles (a throw fails it). */
  run<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` inside a new span, child of the current one, that outlives `fn`: the caller ends it (a response whose
   * body is still streaming). A throw from `fn` fails and ends it.
   */
  enter<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T>;
  /** Starts a span the caller ends, child of `parent` or else of the current span; it is not made current. */
  start(name: string, role: SpanRole, attributes: SpanAttributes, parent?: SpanHandle): SpanHandle;
  /** Sends what is buffered and stops (the core's shutdown). */
  shutdown(): Promise<void>;
}

const NOOP_SPAN: SpanHandle = { set: () => undefined, fail: () => undefined, end: () => undefined };

/** Tracing switched off. */
export const NO_TELEMETRY: Telemetry = {
  enabled: false,
  run: (_name, _role, _attributes, fn) => fn(NOOP_SPAN),
  enter: (_name, _role, _attributes, fn) => fn(NOOP_SPAN),
  start: () => NOOP_SPAN,
  shutdown: () => Promise.resolve(),
};

/** The short class of a thrown error for `error.type`: its code, never its message. */
export function errorType(err: unknown): string {
  if (err instanceof AppError) return err.code;
  if (err instanceof Error) return err.name.slice(0, 64) || 'Error';
  return 'unknown';
}
