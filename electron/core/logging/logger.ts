// The one logger of the core, used by both shells: one line per entry in a rotating file in the data folder
// (`<time> <LEVEL> [component] message`), secrets redacted, untrusted text escaped so it is inert in a terminal and
// cannot forge lines; warnings and errors can also be echoed to stderr (headless mode).
import { join } from 'node:path';
import { escapeControl, truncate } from '../text.js';
import { Redactor } from './redact.js';
import { RotatingFile, type RotatingFileOptions } from './rotating-file.js';

/** How important a log entry is. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Longest message written; the rest is cut with a marker. */
const MAX_MESSAGE = 8 * 1024;

/** Where the app writes its log. */
export interface Logger {
  /** The log file's path, or null when logging to memory/stderr only. */
  readonly file: string | null;
  /** Masks secrets in every line; register secret values with it. */
  readonly redactor: Redactor;
  /** Writes one entry (untrusted text is escaped and secrets masked here). */
  log(level: LogLevel, component: string, message: string): void;
  debug(component: string, message: string): void;
  info(component: string, message: string): void;
  warn(component: string, message: string): void;
  error(component: string, message: string): void;
  /** Resolves once everything logged so far is on disk. */
  flush(): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

/** Options of the logger. */
export interface LoggerOptions {
  /** The data folder; the log goes to `<dataDir>/logs/switchboard.log`. Absent: no file. */
  dataDir?: string;
  /** The file's name in `<dataDir>/logs/` (default switchboard.log, the core's; the shell keeps its own). */
  fileName?: string;
  /** Lowest level written (default info; SWITCHBOARD_LOG_LEVEL=debug in the environment lowers it). */
  level?: LogLevel;
  /** Also writes warnings and errors to this sink (headless: stderr). */
  echo?: (line: string) => void;
  /** Rotation settings. */
  rotation?: RotatingFileOptions;
  /** Clock (tests). */
  now?: () => Date;
}

/** The log file's path for a data folder. */
export const logFileIn = (dataDir: string, fileName = 'switchboard.log'): string => join(dataDir, 'logs', fileName);

/** The shell process's log file name (the supervisor's account of the core, and the core's last words). */
export const SHELL_LOG_FILE = 'shell.log';

/** Formats one entry as a single safe line. */
export function formatLogLine(time: Date, level: LogLevel, component: string, message: string, redactor: Redactor): string {
  const text = escapeControl(truncate(redactor.redact(message), MAX_MESSAGE));
  return `${time.toISOString()} ${level.toUpperCase().padEnd(5)} [${escapeControl(component)}] ${text}`;
}

/** Creates the logger. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const envLevel = process.env['SWITCHBOARD_LOG_LEVEL'];
  const level: LogLevel = opts.level ?? (envLevel && envLevel in ORDER ? (envLevel as LogLevel) : 'info');
  const now = opts.now ?? (() => new Date());
  const redactor = new Redactor();
  const file = opts.dataDir !== undefined ? new RotatingFile(logFileIn(opts.dataDir, opts.fileName), opts.rotation) : undefined;
  let reportedDrops = 0;
  const log = (lvl: LogLevel, component: string, message: string): void => {
    if (ORDER[lvl] < ORDER[level]) return;
    const line = formatLogLine(now(), lvl, component, message, redactor);
    if (file) {
      if (file.dropped > reportedDrops) {
        const dropped = file.dropped - reportedDrops;
        reportedDrops = file.dropped;
        file.write(formatLogLine(now(), 'warn', 'log', `${dropped} log lines were dropped: the disk did not keep up`, redactor));
      }
      file.write(line);
    }
    if (opts.echo && ORDER[lvl] >= ORDER.warn) opts.echo(line);
  };
  return {
    file: file?.path ?? null,
    redactor,
    log,
    debug: (c, m) => log('debug', c, m),
    info: (c, m) => log('info', c, m),
    warn: (c, m) => log('warn', c, m),
    error: (c, m) => log('error', c, m),
    flush: () => file?.flush() ?? Promise.resolve(),
    close: () => file?.close() ?? Promise.resolve(),
  };
}
