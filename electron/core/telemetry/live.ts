// Tracing that can be switched while the core runs: the wrappers are installed once over this, and a change of
// the setting swaps what it delegates to (a new exporter and provider, or none). `enabled` is read at each use, so
// with tracing off the wrappers step aside and cost a property read.
import { NO_TELEMETRY, type SpanAttributes, type SpanHandle, type SpanRole, type Telemetry } from './telemetry.js';

/** The core's tracing, replaceable at run time. */
export class LiveTelemetry implements Telemetry {
  #current: Telemetry;
  /** Shutdowns of replaced tracers still flushing (the core's shutdown waits for them). */
  readonly #retiring = new Set<Promise<void>>();

  constructor(initial: Telemetry = NO_TELEMETRY) {
    this.#current = initial;
  }

  get enabled(): boolean {
    return this.#current.enabled;
  }

  run<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    return this.#current.run(name, role, attributes, fn);
  }

  enter<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    return this.#current.enter(name, role, attributes, fn);
  }

  start(name: string, role: SpanRole, attributes: SpanAttributes, parent?: SpanHandle): SpanHandle {
    return this.#current.start(name, role, attributes, parent);
  }

  /**
   * Sends the spans from now on through `next`. The replaced tracer flushes what has ended and stops; a span
   * still open across the switch (a long call) ends on the stopped provider and is not sent.
   */
  replace(next: Telemetry): Promise<void> {
    const old = this.#current;
    this.#current = next;
    if (old === next) return Promise.resolve();
    const done = old.shutdown().finally(() => this.#retiring.delete(done));
    this.#retiring.add(done);
    return done;
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.#retiring, this.#current.shutdown()]);
  }
}
