// The OTLP tracing setting: the endpoint and whether traces are sent, saved in the settings file. A change applies
// at once (the running core's tracer is replaced), except in a run whose --otlp overrides the saved setting.
import type { Settings } from '../../../shared/config.js';
import type { TelemetryState } from '../../../shared/domains/app.js';
import { AppError } from '../../../shared/errors.js';
import type { Definitions } from '../servers/definitions.js';
import { tracesUrl } from '../telemetry/traces-url.js';

/** What the running core traces with. */
export interface RunningTelemetry {
  /** The endpoint this run sends to, if any. */
  endpoint: string | undefined;
  /** True when the command line's --otlp chose it. */
  overridden: boolean;
}

/** The endpoint a saved setting sends traces to: none when off or unset. */
export function savedEndpoint(settings: Settings): string | undefined {
  const t = settings.telemetry;
  return t?.enabled === false ? undefined : t?.otlpEndpoint;
}

/** Checks an endpoint as tracing will use it; a bad one is config_invalid with the reason (never the value). */
export function checkEndpoint(endpoint: string): string {
  const trimmed = endpoint.trim();
  if (trimmed === '') throw new AppError('config_invalid', 'Enter an OTLP endpoint (e.g. http://127.0.0.1:4318) to turn traces on');
  try {
    tracesUrl(trimmed);
  } catch (err) {
    throw new AppError('config_invalid', (err as Error).message);
  }
  return trimmed;
}

/** Reads and saves the tracing setting. */
export class TelemetrySetting {
  readonly #definitions: Definitions;
  readonly #running: RunningTelemetry;
  readonly #apply: ((endpoint: string | undefined) => void) | undefined;

  /** `apply` switches the running core to an endpoint (none: off); without it a change waits for the next start. */
  constructor(definitions: Definitions, running: RunningTelemetry, apply?: (endpoint: string | undefined) => void) {
    this.#definitions = definitions;
    this.#running = { ...running };
    this.#apply = apply;
  }

  state(): TelemetryState {
    const saved = this.#definitions.settings.telemetry;
    const endpoint = saved?.otlpEndpoint ?? null;
    const wanted = savedEndpoint(this.#definitions.settings);
    return {
      endpoint,
      enabled: endpoint !== null && saved?.enabled !== false,
      active: this.#running.endpoint !== undefined,
      overridden: this.#running.overridden,
      // With --otlp this run ignores the saved setting, so saving never makes a difference until a start without it.
      restartNeeded: !this.#running.overridden && wanted !== this.#running.endpoint,
    };
  }

  /** Saves the endpoint (null or empty clears it) and the switch; turning on needs an endpoint. */
  set(endpoint: string | null, enabled: boolean): TelemetryState {
    const given = endpoint === null || endpoint.trim() === '' ? undefined : checkEndpoint(endpoint);
    if (enabled && given === undefined) checkEndpoint('');
    const now = this.#definitions.settings;
    const next: Settings = { ...now };
    if (given === undefined) delete next.telemetry;
    else next.telemetry = { otlpEndpoint: given, ...(enabled ? {} : { enabled: false }) };
    this.#definitions.save(next);
    const wanted = savedEndpoint(next);
    if (this.#apply && !this.#running.overridden && wanted !== this.#running.endpoint) {
      this.#apply(wanted);
      this.#running.endpoint = wanted;
    }
    return this.state();
  }
}
