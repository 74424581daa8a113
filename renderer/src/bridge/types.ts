import type { BridgeApi, EventSubscriber } from '../../../shared/contract';

/** The renderer's one way to reach the core; which transport carries it is hidden. */
export interface Bridge {
  /** Typed contract methods; they reject with AppError. */
  api: BridgeApi;
  /** Typed event subscription. */
  on: EventSubscriber;
  /** Which transport was picked at start-up. */
  kind: 'electron' | 'websocket';
  /** Called when the connection to the core is lost (headless only). */
  onDisconnect(listener: () => void): void;
}
