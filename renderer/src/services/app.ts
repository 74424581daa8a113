// App-level calls and event subscription.
import type { EventKey, EventMap } from '../../../shared/contract';
import { bridge, connectBridge } from '../bridge';

export const appService = {
  connect: connectBridge,
  info: () => bridge().api['app.info']({}),
  dismissNotice: (id: string) => bridge().api['app.dismissNotice']({ id }),
  /** Tells the core's shell our event listeners are attached (Electron holds events back until then). */
  listening: () => bridge().api['app.listening']({}),
  /** Opens an http(s) link through the core's safe opener (the app's browser; headless prints it). */
  openLink: (url: string) => bridge().api['app.openLink']({ url }),
  /** Server processes from an earlier run that are still running. */
  leftovers: () => bridge().api['app.leftovers']({}),
  /** Ends the listed leftover process groups. */
  endLeftovers: (pgids: number[]) => bridge().api['app.endLeftovers']({ pgids }),
  /** The saved OTLP tracing setting and what this run does. */
  telemetry: () => bridge().api['app.telemetry']({}),
  /** Saves the OTLP tracing setting (applies at the next start). */
  setTelemetry: (endpoint: string | null, enabled: boolean) => bridge().api['app.setTelemetry']({ endpoint, enabled }),
  on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => bridge().on(event, listener),
  onDisconnect: (listener: () => void) => bridge().onDisconnect(listener),
};
