// Turns the configured endpoint into the core's tracing: off without one; a bad endpoint or a failed export is
// logged and shown as a notice (tracing the person asked for never stops silently). OpenTelemetry is loaded only
// for a good endpoint, and then in the background: a core without tracing never reads it, and one with tracing
// answers the page while it loads.
import type { AppNotice } from '../../../shared/contract.js';
import { NO_TELEMETRY, type SpanAttributes, type SpanHandle, type SpanRole, type Telemetry } from './telemetry.js';
import { tracesUrl } from './traces-url.js';
import type { OtelSpan, TracerTelemetry } from './tracer-telemetry.js';

/** The notice's id (one per core: a later failure replaces it). */
export const TELEMETRY_NOTICE = 'telemetry';

/** What tracing starts from. */
export interface TelemetryStart {
  /** The OTLP/HTTP endpoint; absent: tracing is off. */
  endpoint: string | undefined;
  version: string;
  mode: string;
  scheduledDelayMs?: number;
  log(level: 'info' | 'warn', text: string): void;
  notify(notice: AppNotice): void;
}

/** The core's tracing for these settings. */
export function startTelemetry(opts: TelemetryStart): Telemetry {
  if (opts.endpoint === undefined || opts.endpoint === '') return NO_TELEMETRY;
  const endpoint = opts.endpoint;
  const warn = (text: string): void => {
    opts.log('warn', text);
    opts.notify({ id: TELEMETRY_NOTICE, level: 'warning', message: text });
  };
  try {
    // Checked here, without OpenTelemetry: a bad endpoint is refused at once.
    tracesUrl(endpoint);
  } catch (err) {
    warn(`Tracing is off: ${(err as Error).message}`);
    return NO_TELEMETRY;
  }
  const loaded = import('./otlp.js').then(
    ({ createOtlpTelemetry }) => {
      const telemetry = createOtlpTelemetry({
        endpoint,
        version: opts.version,
        mode: opts.mode,
        report: warn,
        ...(opts.scheduledDelayMs !== undefined ? { scheduledDelayMs: opts.scheduledDelayMs } : {}),
      });
      opts.log('info', 'traces are sent to the configured OTLP endpoint');
      return telemetry;
    },
    (err: unknown) => {
      warn(`Tracing is off: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    },
  );
  return new LoadingTelemetry(loaded);
}

/**
 * Tracing whose tracer is still loading. Spans wrapped around work (`run`, `enter`) wait for it; spans started and
 * ended by the caller are recorded with their times and handed to the tracer once it is there, so nothing traced in
 * the first moments is lost or mistimed.
 */
class LoadingTelemetry implements Telemetry {
  #tracer: TracerTelemetry | undefined;
  #failed = false;
  readonly #loaded: Promise<TracerTelemetry | undefined>;

  constructor(loaded: Promise<TracerTelemetry | undefined>) {
    this.#loaded = loaded.then((tracer) => {
      this.#tracer = tracer;
      this.#failed = tracer === undefined;
      return tracer;
    });
  }

  get enabled(): boolean {
    return !this.#failed;
  }

  run<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    if (this.#tracer) return this.#tracer.run(name, role, attributes, fn);
    return this.#loaded.then((tracer) => (tracer ?? NO_TELEMETRY).run(name, role, attributes, fn));
  }

  enter<T>(name: string, role: SpanRole, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
    if (this.#tracer) return this.#tracer.enter(name, role, attributes, fn);
    return this.#loaded.then((tracer) => (tracer ?? NO_TELEMETRY).enter(name, role, attributes, fn));
  }

  start(name: string, role: SpanRole, attributes: SpanAttributes, parent?: SpanHandle): SpanHandle {
    const tracer = this.#tracer;
    if (tracer) return tracer.start(name, role, attributes, parent instanceof EarlySpan ? parent.real : parent);
    if (this.#failed) return NO_TELEMETRY.start(name, role, attributes);
    const span = new EarlySpan(attributes);
    void this.#loaded.then((loaded) => {
      if (loaded) span.replay(loaded, name, role, parent);
    });
    return span;
  }

  async shutdown(): Promise<void> {
    await (await this.#loaded)?.shutdown();
  }
}

/** A span started before the tracer was loaded: what happens to it is kept, with when, until it can be sent. */
class EarlySpan implements SpanHandle {
  readonly #startedAt = performance.now();
  readonly #attributes: SpanAttributes;
  #failure: string | undefined;
  #endedAt: number | undefined;
  /** The tracer's span, once replayed (children started later hang from it). */
  real: OtelSpan | undefined;

  constructor(attributes: SpanAttributes) {
    this.#attributes = { ...attributes };
  }

  set(attributes: SpanAttributes): void {
    if (this.real) this.real.set(attributes);
    else if (this.#endedAt === undefined) Object.assign(this.#attributes, attributes);
  }

  fail(type: string): void {
    if (this.real) this.real.fail(type);
    else if (this.#endedAt === undefined) this.#failure = type;
  }

  end(): void {
    if (this.real) this.real.end();
    else this.#endedAt ??= performance.now();
  }

  /** Starts the tracer's span at the recorded time, then applies what happened since (a parent replays first). */
  replay(tracer: TracerTelemetry, name: string, role: SpanRole, parent: SpanHandle | undefined): void {
    const real = tracer.start(name, role, this.#attributes, parent instanceof EarlySpan ? parent.real : parent, this.#startedAt);
    if (this.#failure !== undefined) real.fail(this.#failure);
    if (this.#endedAt !== undefined) real.end(this.#endedAt);
    this.real = real;
  }
}
