// The app-level methods of the contract (facts, notices, links, leftover processes) and their argument validators.
import { z } from 'zod';
import type { AppInfo, LeftoverProcess } from '../contract.js';

/** App-level methods (facts, notices, links, leftover processes): name → (argument object) → result. */
export interface AppInvokeMap {
  /** Facts about the running app and its notices. */
  'app.info': (args: Record<string, never>) => Promise<AppInfo>;
  /** Dismisses a notice by id. */
  'app.dismissNotice': (args: { id: string }) => Promise<void>;
  /** The renderer has attached its event listeners: events held back since its page (re)loaded may be sent now. */
  'app.listening': (args: Record<string, never>) => Promise<void>;
  /** Opens an http(s) link the person clicked (e.g. in a Markdown preview) through the safe opener; headless prints it. */
  'app.openLink': (args: { url: string }) => Promise<void>;
  /** Server process groups from an earlier run that are still running and verified as that run's. */
  'app.leftovers': (args: Record<string, never>) => Promise<LeftoverProcess[]>;
  /** Ends listed leftover groups (SIGTERM, then SIGKILL); `not_found` for a pgid that is not listed. */
  'app.endLeftovers': (args: { pgids: number[] }) => Promise<{ ended: LeftoverProcess[]; remaining: LeftoverProcess[] }>;
  /** The saved OTLP tracing setting and what the running core does. */
  'app.telemetry': (args: Record<string, never>) => Promise<TelemetryState>;
  /** Saves the OTLP tracing setting; `config_invalid` for an endpoint that is not http(s) or is missing when turned on. */
  'app.setTelemetry': (args: { endpoint: string | null; enabled: boolean }) => Promise<TelemetryState>;
}

/** The OTLP tracing setting as saved, and what the running core is doing. */
export interface TelemetryState {
  /** The saved OTLP/HTTP endpoint (null: none saved). */
  endpoint: string | null;
  /** Whether the saved setting asks for traces to be sent. */
  enabled: boolean;
  /** Whether the running core is sending traces now. */
  active: boolean;
  /** True when the command line's --otlp sets the endpoint for this run, overriding the saved one. */
  overridden: boolean;
  /** True when the saved setting differs from what runs (a run whose --otlp overrides it): it applies at the next start. */
  restartNeeded: boolean;
}

/** Where the core process stands, as the shell that supervises it sees it. */
export interface CoreStatus {
  /** running: serving; restarting: it stopped and a new one is starting; failed: it kept failing and the shell gave up. */
  state: 'running' | 'restarting' | 'failed';
  /** Why it stopped (exit code or signal, or its start-up error), for restarting and failed. */
  reason?: string;
  /** The shell's log, where the core's last words are kept. */
  logFile: string | null;
}

/** App-level events pushed by the shell that supervises the core. */
export interface AppEventMap {
  /** The core process stopped, was restarted, or could not be restarted. */
  'app.coreStatus': CoreStatus;
}

/** The app-level event names (the runtime side of AppEventMap). */
export const appEventKeys = { 'app.coreStatus': true } satisfies Record<keyof AppEventMap, true>;

const empty = z.object({}).strict();

/** Validators for app.* arguments: run before any handler, their shapes checked in contract-schemas.ts. */
export const appArgSchemas = {
  'app.info': empty,
  'app.dismissNotice': z.object({ id: z.string().min(1).max(200) }).strict(),
  'app.listening': empty,
  'app.openLink': z.object({ url: z.string().min(1).max(8192) }).strict(),
  'app.leftovers': empty,
  // Positive group ids only: 0 or a negative number would signal the host's own group or every process.
  'app.telemetry': empty,
  'app.setTelemetry': z.object({ endpoint: z.string().max(2048).nullable(), enabled: z.boolean() }).strict(),
  'app.endLeftovers': z
    .object({
      pgids: z
        .array(
          z
            .number()
            .int()
            .min(2)
            .max(2 ** 31 - 1),
        )
        .min(1)
        .max(1000),
    })
    .strict(),
} satisfies Record<keyof AppInvokeMap, z.ZodType>;
