// Turns the configured endpoint into the core's tracing: off without one; a bad endpoint or a failed export is
// logged and shown as a notice (tracing the person asked for never stops silently).
import type { AppNotice } from '../../../shared/contract.js';
import { createOtlpTelemetry } from './otlp.js';
import { NO_TELEMETRY, type Telemetry } from './telemetry.js';

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
  const warn = (text: string): void => {
    opts.log('warn', text);
    opts.notify({ id: TELEMETRY_NOTICE, level: 'warning', message: text });
  };
  try {
    const telemetry = createOtlpTelemetry({
      endpoint: opts.endpoint,
      version: opts.version,
      mode: opts.mode,
      report: warn,
      ...(opts.scheduledDelayMs !== undefined ? { scheduledDelayMs: opts.scheduledDelayMs } : {}),
    });
    opts.log('info', 'traces are sent to the configured OTLP endpoint');
    return telemetry;
  } catch (err) {
    warn(`Tracing is off: ${(err as Error).message}`);
    return NO_TELEMETRY;
  }
}
