// Parses large stdout lines on a worker thread, one worker shared by every stdio server of the process and started
// on first use. The worker holds the process open only while a line is being parsed. When it cannot start or dies,
// later lines are parsed on the calling thread (slower for the UI). The worker answers every line, JSON or not; only
// the thread itself dying mid-line loses a line handed over to it, which is then logged as lost.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseLine, type ParsedLine } from './line-parse.js';
import { SlabLine, type LineBytes } from './line-reader.js';
import { sharedSlabPool, type SlabPool } from './slab-pool.js';

/** Lines at least this long are parsed off the main thread; shorter ones cost less than the hand-over. */
export const OFF_THREAD_BYTES = 256 * 1024;

/** How to start the worker: its built file, or (from source) a bootstrap that loads the TypeScript entry through tsx. */
export interface WorkerStart {
  /** The entry file. */
  file: string;
  /** Code to run instead of the file (evaluated as CommonJS; it imports the file). */
  bootstrap?: string;
}

/**
 * Where the worker is: beside the bundle that holds this module once built (dist/electron/line-parse-worker.mjs,
 * unpacked from the asar archive in a packaged app), or the TypeScript source when run from source (tests, benches:
 * tsx registers itself in the worker first, as a worker's `--import` is not applied to its entry on Node 20).
 */
export function lineParseWorker(moduleUrl: string = import.meta.url): WorkerStart | undefined {
  const fromSource = moduleUrl.endsWith('.ts');
  const file = fileURLToPath(new URL(fromSource ? './line-parse-worker.ts' : './line-parse-worker.mjs', moduleUrl)).replace(
    /([\\/])app\.asar([\\/])/,
    '$1app.asar.unpacked$2',
  );
  if (!existsSync(file)) return undefined;
  if (!fromSource) return { file };
  const entry = JSON.stringify(pathToFileURL(file).href);
  return { file, bootstrap: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); });` };
}

interface Pending {
  resolve: (parsed: ParsedLine) => void;
  /** The line while this thread still has it (waiting for the worker, or lent by copy), so a worker that dies or never
   * loads loses it not; a handed-over line is gone with the worker. */
  bytes: LineBytes | undefined;
}

/** What the worker answers: the parsed line, and the slabs it was handed (back for reuse). */
interface Answer {
  id: number;
  parsed: ParsedLine;
  slabs?: ArrayBuffer[];
}

/** What a line that went down with a stopped worker is reported as. */
const LOST: ParsedLine = { kind: 'not_json', quote: '(a large line was lost: the line-parse worker stopped while parsing it)' };

/** A worker parsing lines, with the calling thread as fallback. */
export class LineParsePool {
  #worker: Worker | undefined;
  #broken = false;
  /** The worker has answered a line (it loaded). */
  #answered = false;
  #warming = false;
  /** Lines given before the worker answered, in order: they wait for it here (a worker that fails to load loses none). */
  #waiting: number[] = [];
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  readonly #locate: () => WorkerStart | undefined;
  readonly #slabs: SlabPool;

  constructor(locate: () => WorkerStart | undefined = () => lineParseWorker(), slabs: SlabPool = sharedSlabPool) {
    this.#locate = locate;
    this.#slabs = slabs;
  }

  /** Parses a line on this thread; its slabs go back to the pool. */
  #parseHere(bytes: LineBytes): ParsedLine {
    if (!(bytes instanceof SlabLine)) return parseLine(bytes);
    const parsed = parseLine(bytes.join());
    this.#slabs.give(bytes.slabs.map((s) => s.buffer as ArrayBuffer));
    return parsed;
  }

  /** Whether lines currently go to a worker. */
  get offThread(): boolean {
    return !this.#broken;
  }

  /** Whether a line that owns its buffers is now handed to the worker without a copy (it has answered). */
  get handsOver(): boolean {
    return this.#answered && this.#worker !== undefined;
  }

  /** Starts the worker and has it answer once, ahead of a large line, so the line is handed over at once. */
  warm(): void {
    const worker = this.#ensure();
    if (!worker || this.#answered || this.#warming) return;
    this.#warming = true;
    const id = this.#next++;
    this.#track(worker, id, { resolve: () => (this.#warming = false), bytes: undefined });
    worker.postMessage({ id, slabs: [] });
  }

  /**
   * Parses one line. A line that owns its buffers (a SlabLine, or one buffer of its own) is handed over without a
   * copy and must not be used afterwards; any other is copied. Until the worker has answered once, lines wait for it
   * rather than being handed to a thread that may never load.
   */
  parse(bytes: LineBytes): Promise<ParsedLine> {
    const worker = this.#ensure();
    if (!worker) return Promise.resolve(this.#parseHere(bytes));
    const id = this.#next++;
    return new Promise<ParsedLine>((resolve) => {
      this.#track(worker, id, { resolve, bytes });
      if (this.#answered) this.#post(worker, id);
      else {
        this.#waiting.push(id);
        this.warm();
      }
    });
  }

  #track(worker: Worker, id: number, pending: Pending): void {
    this.#pending.set(id, pending);
    if (this.#pending.size === 1) worker.ref();
  }

  /** Sends a waiting line to the worker: its buffers handed over when it owns them (then only the worker has it). */
  #post(worker: Worker, id: number): void {
    const p = this.#pending.get(id);
    if (!p?.bytes) return;
    const bytes = p.bytes;
    const slabs = bytes instanceof SlabLine ? bytes.slabs : [bytes];
    const buffers = ownBuffers(bytes);
    if (buffers) {
      p.bytes = undefined;
      worker.postMessage({ id, slabs }, buffers);
    } else worker.postMessage({ id, slabs });
  }

  /** Stops the worker once the lines it was given are parsed (at most `waitMs`). A later line starts a new one. */
  async close(waitMs = 2000): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    const deadline = Date.now() + waitMs;
    while (this.#pending.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.#worker = undefined;
    this.#answered = false;
    this.#warming = false;
    await worker.terminate();
    this.#settleAll();
  }

  /** Answers every line still waiting: a copy is parsed here; a handed-over line is reported lost. */
  #settleAll(): void {
    this.#waiting = [];
    this.#warming = false;
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      p.resolve(p.bytes ? this.#parseHere(p.bytes) : LOST);
    }
  }

  #ensure(): Worker | undefined {
    if (this.#worker || this.#broken) return this.#worker;
    const where = this.#locate();
    if (!where) {
      this.#broken = true;
      return undefined;
    }
    try {
      const worker = where.bootstrap === undefined ? new Worker(where.file) : new Worker(where.bootstrap, { eval: true });
      worker.unref();
      worker.on('message', (msg: Answer) => {
        if (msg.slabs) this.#slabs.give(msg.slabs);
        const p = this.#pending.get(msg.id);
        if (!p) return;
        this.#pending.delete(msg.id);
        if (!this.#answered) {
          this.#answered = true;
          for (const id of this.#waiting.splice(0)) this.#post(worker, id);
        }
        if (this.#pending.size === 0) worker.unref();
        p.resolve(msg.parsed);
      });
      const fail = (): void => {
        if (this.#worker !== worker) return;
        this.#worker = undefined;
        this.#broken = true;
        this.#answered = false;
        this.#settleAll();
      };
      worker.on('error', fail);
      worker.on('exit', fail);
      this.#worker = worker;
      return worker;
    } catch {
      this.#broken = true;
      return undefined;
    }
  }
}

/** The buffers to hand over with a line, when it owns them outright; undefined when it must be copied. */
function ownBuffers(bytes: LineBytes): ArrayBuffer[] | undefined {
  if (bytes instanceof SlabLine) return bytes.slabs.map((s) => s.buffer as ArrayBuffer);
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? [bytes.buffer as ArrayBuffer] : undefined;
}

/** The process's shared pool. */
export const sharedLineParsePool = new LineParsePool();
