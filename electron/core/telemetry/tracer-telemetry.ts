// Tracing over an OpenTelemetry tracer. The current span is carried in an AsyncLocalStorage of our own (no global
// OpenTelemetry registration), so a span started inside a tool call's async chain (its round trips, its task polls,
// a connect it triggered) becomes that call's child, and several cores in one process (tests) never share context.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type HrTime, type Span, type Tracer } from '@opentelemetry/api';
import { addHrTimes, millisToHrTime } from '@opentelemetry/core';
import { errorType, type SpanAttributes, type SpanHandle, type SpanRole, type Telemetry } from './telemetry.js';

const KINDS: Record<SpanRole, SpanKind> = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };

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

/** The time `at` (the monotonic clock, now by default) on a trace's anchor. */
function timeOn(anchor: Anchor, at = performance.now()): HrTime {
  return addHrTimes(anchor, millisToHrTime(at));
}

/** The anchor of each live span, so a child found through the context is timed on its trace's clock. */
const anchors = new WeakMap<Span, Anchor>();

/** One span over the SDK's. */
export class OtelSpan implements SpanHandle {
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
  /** Ends the span now, or at `at` on the monotonic clock (a span recorded before the tracer was loaded). */
  end(at?: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.span.end(timeOn(this.anchor, at));
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

  /** `at`: when it started on the monotonic clock, if not now (a span recorded before the tracer was loaded). */
  start(name: string, role: SpanRole, attributes: SpanAttributes, parent?: SpanHandle, at?: number): OtelSpan {
    const context = parent instanceof OtelSpan ? trace.setSpan(ROOT_CONTEXT, parent.span) : (this.#current.getStore() ?? ROOT_CONTEXT);
    const parentSpan = trace.getSpan(context);
    const anchor = (parentSpan && anchors.get(parentSpan)) ?? readAnchor();
    const span = this.#tracer.startSpan(
      name,
      { kind: KINDS[role], attributes: defined(attributes), startTime: timeOn(anchor, at) },
      context,
    );
    return new OtelSpan(span, anchor);
  }

  async run<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    const handle = this.start(name, role, attributes);
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
    const handle = this.start(name, role, attributes);
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
