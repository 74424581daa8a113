// The core's tracing port: spans with MCP attributes, off unless an OTLP endpoint is configured. The current span
// is carried in an AsyncLocalStorage of our own (no global OpenTelemetry registration), so a span started inside a
// tool call's async chain (its round trips, its task polls, a connect it triggered) becomes that call's child, and
// several cores in one process (tests) never share context.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type HrTime, type Span, type Tracer } from '@opentelemetry/api';
import { addHrTimes, millisToHrTime } from '@opentelemetry/core';
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

const KINDS: Record<SpanRole, SpanKind> = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };

/** The short class of a thrown error for `error.type`: its code, never its message. */
export function errorType(err: unknown): string {
  if (err instanceof AppError) return err.code;
  if (err instanceof Error) return err.name.slice(0, 64) || 'Error';
  return 'unknown';
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Wall time at the monotonic clock's zero, read when a trace starts. The SDK anchors every span on its own
 * millisecond `Date.now()`, so a child that ends microseconds before its parent could be stamped after it; every
 * span of one trace is timed from its root's anchor instead, and a new trace re-reads the wall clock (the monotonic
 * clock stops while a laptop sleeps).
 */
type Anchor = HrTime;

function readAnchor(): Anchor {
  return millisToHrTime(Date.now() - performance.now());
}

function timeOn(anchor: Anchor): HrTime {
  return addHrTimes(anchor, millisToHrTime(performance.now()));
}

/** The anchor of each live span, so a child found through the context is timed on its trace's clock. */
const anchors = new WeakMap<Span, Anchor>();

class OtelSpan implements SpanHandle {
  readonly span: Span;
  readonly anchor: Anchor;
  #ended = false;
  constructor(span: Span, anchor: Anchor) {
    this.span = span;
    this.anchor = anchor;
    anchors.set(span, anchor);
  }
  set(attributes: SpanAttributes): void {
    if (!this.#ended) this.span.setAttributes(defined(attributes));
  }
  fail(type: string): void {
    if (this.#ended) return;
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.span.end(timeOn(this.anchor));
  }
}

/** Tracing over an OpenTelemetry tracer; `stop` flushes and shuts its provider down. */
export class TracerTelemetry implements Telemetry {
  readonly enabled = true;
  readonly #tracer: Tracer;
  readonly #stop: () => Promise<void>;
  readonly #current = new AsyncLocalStorage<Context>();

  constructor(tracer: Tracer, stop: () => Promise<void>) {
    this.#tracer = tracer;
    this.#stop = stop;
  }

  start(name: string, role: SpanRole, attributes: SpanAttributes, parent?: SpanHandle): SpanHandle {
    const context = parent instanceof OtelSpan ? trace.setSpan(ROOT_CONTEXT, parent.span) : (this.#current.getStore() ?? ROOT_CONTEXT);
    const parentSpan = trace.getSpan(context);
    const anchor = (parentSpan && anchors.get(parentSpan)) ?? readAnchor();
    const span = this.#tracer.startSpan(name, { kind: KINDS[role], attributes: defined(attributes), startTime: timeOn(anchor) }, context);
    return new OtelSpan(span, anchor);
  }

  async run<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    const handle = this.start(name, role, attributes) as OtelSpan;
    try {
      return await this.#current.run(trace.setSpan(ROOT_CONTEXT, handle.span), () => fn(handle));
    } catch (err) {
      handle.fail(errorType(err));
      throw err;
    } finally {
      handle.end();
    }
  }

  async enter<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    const handle = this.start(name, role, attributes) as OtelSpan;
    try {
      return await this.#current.run(trace.setSpan(ROOT_CONTEXT, handle.span), () => fn(handle));
    } catch (err) {
      handle.fail(errorType(err));
      handle.end();
      throw err;
    }
  }

  shutdown(): Promise<void> {
    return this.#stop();
  }
}
