// The command's side of the running app's control door (shell/control-door.ts): finds the door in control.json,
// checks it answers to the file's token, and makes contract calls through it over one kept-alive loopback connection.
// Loads node:http and nothing of the core, so a command routed to the running app starts in little more than Node's
// own start-up.
import { Agent, request } from 'node:http';
import type { IpcEnvelope } from '../../shared/contract.js';
import { isAppErrorData } from '../../shared/errors.js';
import {
  CONTROL_CALL_PATH,
  CONTROL_HELLO_PATH,
  CONTROL_VERSION,
  pidAlive,
  readControlFile,
  type ControlFile,
} from '../shell/control-file.js';
import { CliError } from './cli-error.js';
import { EXIT } from './exit-codes.js';

/** How long the door may take to say it is there. */
const HELLO_TIMEOUT_MS = 10_000;

/** A connection to the running app's door. */
export interface ControlClient {
  /** The door's URL (for the note on stderr). */
  readonly url: string;
  /** The running shell's pid. */
  readonly pid: number;
  /** One contract call; resolves with the contract's envelope, or throws a CliError when the door did not answer. */
  call(method: string, args: unknown): Promise<IpcEnvelope<unknown>>;
  /** Ends the connection (the app and its servers keep running). */
  close(): void;
}

interface Answer {
  status: number;
  body: string;
}

/**
 * The running app's door on this data folder, or undefined when no app runs there: no control.json, a malformed one,
 * one whose pid is gone (a shell that died), or a door that refuses connections (a shell that is stopping). A door
 * that answers but refuses the file's token is an error: the file does not belong to the app that holds the folder.
 */
export async function connectToRunningApp(dataDir: string): Promise<ControlClient | undefined> {
  const file = readControlFile(dataDir);
  if (file === undefined || !pidAlive(file.pid)) return undefined;
  const agent = new Agent({ keepAlive: true });
  const send = (method: 'GET' | 'POST', path: string, body?: string, timeoutMs?: number): Promise<Answer> =>
    exchange(agent, file, { method, path, ...(body !== undefined ? { body } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  let hello: Answer;
  try {
    // The shell answers this itself (no core involved): a door silent this long is not going to serve the command.
    hello = await send('GET', CONTROL_HELLO_PATH, undefined, HELLO_TIMEOUT_MS);
  } catch (err) {
    agent.destroy();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return undefined;
    throw new CliError(
      EXIT.switchboard,
      'internal',
      `The running Switchboard's control door (${file.url}) did not answer: ${String(code ?? err)}`,
    );
  }
  if (hello.status !== 200 || (parseJson(hello.body) as { version?: unknown } | undefined)?.version !== CONTROL_VERSION) {
    agent.destroy();
    throw new CliError(
      EXIT.switchboard,
      'denied',
      `The running Switchboard's control door (${file.url}) refused the command (HTTP ${hello.status}); ` +
        `its control.json in ${dataDir} may be from another launch.`,
    );
  }
  return {
    url: file.url,
    pid: file.pid,
    async call(method, args) {
      let answer: Answer;
      try {
        answer = await send('POST', CONTROL_CALL_PATH, JSON.stringify({ method, args }));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(
          EXIT.switchboard,
          'core_unavailable',
          `The running Switchboard stopped answering during ${method} (${String(code ?? (err as Error).message)})`,
        );
      }
      return envelopeOf(method, answer);
    },
    close: () => agent.destroy(),
  };
}

/** The envelope in an answer; a refusal's error (or a garbled answer) as a failed envelope. */
function envelopeOf(method: string, answer: Answer): IpcEnvelope<unknown> {
  const value = parseJson(answer.body) as { ok?: unknown; value?: unknown; error?: unknown } | undefined;
  if (answer.status === 200 && value?.ok === true) return { ok: true, value: value.value };
  if (value?.ok === false && isAppErrorData(value.error)) return { ok: false, error: value.error };
  return {
    ok: false,
    error: { code: 'internal', message: `The running Switchboard's answer to ${method} was not understood (HTTP ${answer.status})` },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** No answer within this: fails with ETIMEDOUT (calls have none: a tool may run long, --timeout cancels it). */
  timeoutMs?: number;
}

function exchange(agent: Agent, file: ControlFile, { method, path, body, timeoutMs }: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A timer, not the socket's timeout: the kept-alive socket must not carry a limit into the calls after it.
    let timer: NodeJS.Timeout | undefined;
    const req = request(
      `${file.url}${path}`,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${file.token}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('close', () => clearTimeout(timer));
    if (timeoutMs !== undefined)
      timer = setTimeout(() => req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })), timeoutMs);
    req.end(body);
  });
}
