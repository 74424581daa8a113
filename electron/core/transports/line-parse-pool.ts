// Parses large stdout lines on a worker thread, one worker shared by every stdio server of the process and started
// on first use. The worker holds the process open only while a line is being parsed. When it cannot start or dies,
// later lines are parsed on the calling thread (slower for the UI). The worker answers every line, JSON or not; only
// the thread itself dying mid-line loses a line handed over to it, which is then logged as lost.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseLine, type ParsedLine } from './line-parse.js';

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
  /** A line lent by copy is kept, so a worker that dies loses it not; a handed-over one is gone with the worker. */
  bytes: Buffer | undefined;
}

/** What a line that went down with a stopped worker is reported as. */
const LOST: ParsedLine = { kind: 'not_json', quote: '(a large line was lost: the line-parse worker stopped while parsing it)' };

/** A worker parsing lines, with the calling thread as fallback. */
export class LineParsePool {
  #worker: Worker | undefined;
  #broken = false;
  /** The worker has answered a line (it loaded). */
  #answered = false;
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  readonly #locate: () => WorkerStart | undefined;

  constructor(locate: () => WorkerStart | undefined = () => lineParseWorker()) {
    this.#locate = locate;
  }

  /** Whether lines currently go to a worker. */
  get offThread(): boolean {
    return !this.#broken;
  }

  /**
   * Parses one line. Once the worker has answered, a line that owns its whole buffer (as a large line does, joined
   * from its chunks) is handed over without a copy and must not be used afterwards; any other is copied.
   */
  parse(bytes: Buffer): Promise<ParsedLine> {
    const worker = this.#ensure();
    if (!worker) return Promise.resolve(parseLine(bytes));
    // Handed over only once the worker has answered: a worker that fails to load then loses no line.
    const owned =
      this.#answered && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const id = this.#next++;
    return new Promise<ParsedLine>((resolve) => {
      this.#pending.set(id, { resolve, bytes: owned ? undefined : bytes });
      if (this.#pending.size === 1) worker.ref();
      if (owned) worker.postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer]);
      else worker.postMessage({ id, bytes });
    });
  }

  /** Stops the worker once the lines it was given are parsed (at most `waitMs`). A later line starts a new one. */
  async close(waitMs = 2000): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    const deadline = Date.now() + waitMs;
    while (this.#pending.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.#worker = undefined;
    this.#answered = false;
    await worker.terminate();
    this.#settleAll();
  }

  /** Answers every line still waiting: a copy is parsed here; a handed-over line is reported lost. */
  #settleAll(): void {
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      p.resolve(p.bytes ? parseLine(p.bytes) : LOST);
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
      worker.on('message', (msg: { id: number; parsed: ParsedLine }) => {
        const p = this.#pending.get(msg.id);
        if (!p) return;
        this.#pending.delete(msg.id);
        this.#answered = true;
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

/** The process's shared pool. */
export const sharedLineParsePool = new LineParsePool();
