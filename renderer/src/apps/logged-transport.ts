// The extension's PostMessageTransport to the sandbox proxy, with every message it carries (and every malformed one
// it refuses) written to the app's Inspector log. The protocol itself is AppBridge's; this only observes, except for
// the sandbox proxy's own reports of what it dropped, which go to the log as refused rows and never to AppBridge,
// and messages over the size or depth bound, which are refused here (a request is answered with the error) so that
// nothing an app sends can overrun the host's own connection to the core.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { checkMessageBounds, refusalFor } from './message-bound';
import type { MessageLog } from './message-log';

/** A PostMessageTransport to `target` (accepting messages from it only) that logs what it carries. */
export class LoggedTransport implements Transport {
  readonly #inner: PostMessageTransport;
  readonly #log: MessageLog;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  constructor(target: Window, log: MessageLog) {
    this.#log = log;
    this.#inner = new PostMessageTransport(target, target);
    this.#inner.onmessage = (message, extra) => {
      if (log.sandboxReport(message)) return;
      const bound = checkMessageBounds(message);
      if (!bound.ok) {
        this.#refuse(message, bound.reason);
        return;
      }
      log.add('in', message);
      this.onmessage?.(message, extra);
    };
    this.#inner.onerror = (error) => {
      log.refused(`Malformed message from the app: ${error.message.slice(0, 200)}`);
      this.onerror?.(error);
    };
    this.#inner.onclose = () => this.onclose?.();
  }

  /** Logs a refused message (without its content) and answers it when it is a request. */
  #refuse(message: JSONRPCMessage, reason: string): void {
    const m = message as { id?: unknown; method?: unknown };
    const method = typeof m.method === 'string' ? m.method.slice(0, 80) : 'a response';
    this.#log.refused(`${reason}: ${method} was not relayed`);
    if ((typeof m.id === 'string' || typeof m.id === 'number') && typeof m.method === 'string') void this.send(refusalFor(m.id, reason));
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#log.add('out', message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
