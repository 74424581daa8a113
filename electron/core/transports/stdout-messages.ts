// A stdio server's stdout turned into JSON-RPC messages, in the order it wrote them: lines split and bounded by the
// message limit, large lines parsed on the worker (the lines after one wait their turn), nesting past the wire limit
// cut and reported, lines that are no JSON-RPC message skipped and logged, and an over-limit response answered with
// a typed error for its request so it does not wait for its timeout.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { parseJSONRPCMessage } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import { depthReporter, describeMessage } from '../ingress/depth-stage.js';
import { parseLine, type ParsedLine } from './line-parse.js';
import { OFF_THREAD_BYTES, sharedLineParsePool, type LineParsePool } from './line-parse-pool.js';
import { BoundedLineReader, responseIdFromEdges, type LineBytes } from './line-reader.js';
import { sharedSlabPool } from './slab-pool.js';
import type { TransportLog } from './transport-factory.js';
import { noteWireBytes } from './wire-size.js';
import { formatSize } from '../../../shared/format-size.js';

/** JSON-RPC error code for a response discarded because it exceeded limits.messageBytes. */
export const LIMIT_EXCEEDED_RPC_CODE = -32050;

/** Resolves with `value` in a later turn of the event loop. */
const afterTurn = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)));

/** Where the messages go. */
export interface StdoutMessagesSink {
  /** A message, in order. */
  message(message: JSONRPCMessage): void;
  /** A problem worth the session's attention (a line over the limit). */
  error(error: Error): void;
  /** True once the transport has closed: later lines are dropped. */
  closed(): boolean;
}

/** What the reader needs to know. */
export interface StdoutMessagesOptions {
  /** Server id, carried in errors. */
  serverId: string;
  /** Longest line accepted, in bytes. */
  messageBytes: number;
  /** Log sink. */
  log: TransportLog;
  /** Where large lines are parsed (default: the process's shared worker). */
  lineParser?: LineParsePool | undefined;
}

/** Reads one server's stdout into messages. */
export class StdoutMessages {
  readonly #opts: StdoutMessagesOptions;
  readonly #sink: StdoutMessagesSink;
  readonly #reader: BoundedLineReader;
  readonly #pool: LineParsePool;
  readonly #reportDeep: (what: string) => void;
  /** The last line being parsed off the main thread, or undefined when every line read was delivered. */
  #parsing: Promise<void> | undefined;
  #oversizedLines = 0;
  #skippedLines = 0;

  constructor(opts: StdoutMessagesOptions, sink: StdoutMessagesSink) {
    this.#opts = opts;
    this.#sink = sink;
    this.#pool = opts.lineParser ?? sharedLineParsePool;
    this.#reportDeep = depthReporter((level, text) => opts.log('protocol', level, text));
    // A line reaching the off-thread size is gathered in slabs (handed to the worker without a copy), and the worker
    // is readied while the rest of the line streams in.
    this.#reader = new BoundedLineReader(
      opts.messageBytes,
      {
        line: (bytes) => this.#onLine(bytes),
        large: () => this.#pool.warm(),
        oversized: (limit) => this.#onOversized(limit),
        oversizedEnd: (total, head, tail) => this.#onOversizedEnd(total, head, tail),
      },
      { slabFrom: OFF_THREAD_BYTES, slabPool: sharedSlabPool },
    );
  }

  /** Feeds a piece of stdout. */
  push(piece: Buffer): void {
    this.#reader.push(piece);
  }

  /** The output ended: a last line without its newline is read too. */
  flush(): void {
    this.#reader.flush();
  }

  /** Resolves once every line read so far has been delivered. */
  delivered(): Promise<void> {
    return this.#parsing ?? Promise.resolve();
  }

  /** Counters for diagnostics and tests. */
  get stats(): { oversizedLines: number; skippedLines: number; peakLineBytes: number } {
    return { oversizedLines: this.#oversizedLines, skippedLines: this.#skippedLines, peakLineBytes: this.#reader.peakPendingBytes };
  }

  #onLine(bytes: LineBytes): void {
    // A large line is parsed on the worker; lines after it wait their turn, so messages keep their order.
    if (this.#parsing === undefined && Buffer.isBuffer(bytes)) {
      this.#deliver(parseLine(bytes));
      return;
    }
    const previous = this.#parsing ?? Promise.resolve();
    // A line back from the worker is delivered in a turn of its own: taking its result from the worker (a large
    // string landing in fresh memory) and handling the message are then two shorter stalls instead of one long one.
    const parsed = Buffer.isBuffer(bytes) ? parseLine(bytes) : this.#pool.parse(bytes).then(afterTurn);
    const turn = previous.then(async () => this.#deliver(await parsed));
    this.#parsing = turn;
    void turn.then(() => {
      if (this.#parsing === turn) this.#parsing = undefined;
    });
  }

  #deliver(parsed: ParsedLine): void {
    if (parsed.kind === 'blank' || this.#sink.closed()) return;
    if (parsed.kind === 'not_json') {
      this.#skip(parsed.quote);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(parsed.value);
    } catch {
      this.#skip(parsed.quote);
      return;
    }
    if (parsed.cut) this.#reportDeep(describeMessage(message));
    else noteWireBytes(message, parsed.bytes);
    try {
      this.#sink.message(message);
    } catch (error) {
      this.#sink.error(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #skip(quote: string): void {
    this.#skippedLines++;
    this.#opts.log('stdout', 'warning', `Skipped a stdout line that is not a JSON-RPC message: ${quote}`);
  }

  #onOversized(limit: number): void {
    this.#oversizedLines++;
    this.#sink.error(
      new AppError(
        'limit_exceeded',
        `A message from the server is larger than the ${formatSize(limit)} limit (limits.messageBytes) and was discarded`,
        { serverId: this.#opts.serverId },
      ),
    );
  }

  /** Fails the request the discarded response answered, so it does not wait for its timeout. */
  #onOversizedEnd(total: number, head: Buffer, tail: Buffer): void {
    this.#opts.log('protocol', 'warning', `Discarded a ${total}-byte stdout line (limit ${formatSize(this.#opts.messageBytes)})`);
    const id = responseIdFromEdges(head, tail);
    if (id === undefined) return;
    const message = `The server's response (${formatSize(total)}) is larger than the ${formatSize(this.#opts.messageBytes)} limit (limits.messageBytes) and was discarded`;
    try {
      this.#sink.message({
        jsonrpc: '2.0',
        id,
        error: { code: LIMIT_EXCEEDED_RPC_CODE, message, data: { code: 'limit_exceeded', bytes: total } },
      });
    } catch {
      // a throwing handler must not break the read loop
    }
  }
}
