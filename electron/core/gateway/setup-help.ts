// "Use from another app": the exact config entry for Claude Desktop, Cursor and VS Code (stdio through
// `switchboard-gateway --client NAME`, or the HTTP URL with its Authorization header), a preview of that app's
// file after the change, and, when asked, the write itself: the file is read with the importers' JSONC reader,
// only our entry is set (jsonc-parser edits keep comments and every other entry), the old file is copied aside
// first and the new one written atomically. A file that cannot be read is never overwritten.
import { copyFile, readFile, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import type { ImportFormat } from '../../../shared/contract.js';
import type { GatewaySetupApp, GatewaySetupArgs, GatewaySetupPreview, GatewaySetupResult } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import { exportFileName, parseForeignConfig } from '../import/formats.js';
import { isObject } from '../json.js';
import { writeTextAtomic } from '../storage/json-file.js';
import { defaultDataDir } from '../storage/default-data-dir.js';

/** How another app starts the stdio entry point (the shell knows its runtime and where the script is). */
export interface GatewayLauncher {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** What the person must know about this entry (shown with it). */
  note?: string;
}

/** What the set-up help needs to know. */
export interface SetupContext {
  client: { id: string; name: string };
  /** The gateway URL (known once it has run). */
  url: string | undefined;
  dataDir: string;
  launcher: GatewayLauncher | undefined;
  /** Home folder and environment (tests). */
  home?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** The key of our entry in the other app's server map. */
export const ENTRY_NAME = 'switchboard';
const TOKEN_PLACEHOLDER = '<paste this client’s token>';
const FORMAT: Record<GatewaySetupApp, ImportFormat> = { claude: 'claude', cursor: 'cursor', vscode: 'vscode' };
const APP_NAME: Record<GatewaySetupApp, string> = { claude: 'Claude Desktop', cursor: 'Cursor', vscode: 'VS Code' };

/** The app's user-level config file on this platform. */
export function defaultConfigFile(app: GatewaySetupApp, ctx: Pick<SetupContext, 'home' | 'env' | 'platform'> = {}): string {
  const home = ctx.home ?? homedir();
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const appData = env['APPDATA'] ?? join(home, 'AppData', 'Roaming');
  const xdg = env['XDG_CONFIG_HOME'] ?? join(home, '.config');
  if (app === 'cursor') return join(home, '.cursor', 'mcp.json');
  const folder = app === 'claude' ? 'Claude' : join('Code', 'User');
  const base = platform === 'darwin' ? join(home, 'Library', 'Application Support') : platform === 'win32' ? appData : xdg;
  return join(base, folder, exportFileName(FORMAT[app]));
}

function targetFile(ctx: SetupContext, args: GatewaySetupArgs): string {
  if (args.file === undefined) return defaultConfigFile(args.app, ctx);
  const expected = exportFileName(FORMAT[args.app]);
  if (!isAbsolute(args.file) || basename(args.file) !== expected)
    throw new AppError('invalid_request', `${APP_NAME[args.app]}'s config file is an absolute path to a file named ${expected}`);
  return args.file;
}

/** The entry for the app, and the VS Code input it uses (HTTP). */
function buildEntry(
  ctx: SetupContext,
  args: GatewaySetupArgs,
): { entry: Record<string, unknown>; input?: Record<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  if (args.transport === 'stdio') {
    const launcher = ctx.launcher ?? { command: 'switchboard-gateway', args: [] };
    const extra = ctx.dataDir !== defaultDataDir() ? ['--data-dir', ctx.dataDir] : [];
    const entry: Record<string, unknown> = {
      ...(args.app === 'vscode' ? { type: 'stdio' } : {}),
      command: launcher.command,
      args: [...launcher.args, '--client', ctx.client.name, ...extra],
      ...(launcher.env && Object.keys(launcher.env).length > 0 ? { env: launcher.env } : {}),
    };
    notes.push('Switchboard must be running with its gateway on; the entry holds no token.');
    if (!ctx.launcher) notes.push('This entry runs the switchboard-gateway command, which must be on the PATH of that app.');
    else if (launcher.note) notes.push(launcher.note);
    return { entry, notes };
  }
  if (args.app === 'claude')
    throw new AppError('invalid_request', 'Claude Desktop’s config file only starts stdio servers; use the stdio entry.');
  if (!ctx.url) throw new AppError('invalid_request', 'Turn the gateway on first: its URL is not known yet.');
  if (args.app === 'vscode') {
    const inputId = `switchboard-${ctx.client.id}-token`;
    notes.push('VS Code asks for the token once and keeps it itself; the file holds only a reference.');
    return {
      entry: { type: 'http', url: ctx.url, headers: { Authorization: `Bearer \${input:${inputId}}` } },
      input: { type: 'promptString', id: inputId, description: `Switchboard gateway token for ${ctx.client.name}`, password: true },
      notes,
    };
  }
  notes.push('This entry puts the token in Cursor’s config file in plain text; the stdio entry needs no token.');
  return { entry: { url: ctx.url, headers: { Authorization: `Bearer ${args.token ?? TOKEN_PLACEHOLDER}` } }, notes };
}

async function readExisting(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AppError('storage_failed', `${file} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The new file text; throws (never guesses) when the existing file is not a usable config. */
function edit(
  text: string | undefined,
  app: GatewaySetupApp,
  entry: Record<string, unknown>,
  input?: Record<string, unknown>,
): { text: string; replaces: boolean } {
  const key = app === 'vscode' ? 'servers' : 'mcpServers';
  let current = text ?? '';
  let root: unknown = {};
  if (current.trim().length === 0) current = '{}\n';
  else {
    const errors: ParseError[] = [];
    root = parseJsonc(current, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0 || !isObject(root))
      throw new AppError('config_invalid', 'The existing file is not a JSON object; it was left as it is.');
    if (root[key] !== undefined && !isObject(root[key]))
      throw new AppError('config_invalid', `The existing file's "${key}" is not an object; it was left as it is.`);
    if (root['inputs'] !== undefined && !Array.isArray(root['inputs']))
      throw new AppError('config_invalid', 'The existing file\'s "inputs" is not a list; it was left as it is.');
  }
  const servers = isObject(root) && isObject(root[key]) ? root[key] : {};
  const replaces = ENTRY_NAME in servers;
  const fo = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };
  let next = applyEdits(current, modify(current, [key, ENTRY_NAME], entry, fo));
  if (input) {
    const inputs = isObject(root) && Array.isArray(root['inputs']) ? root['inputs'] : [];
    const at = inputs.findIndex((i) => isObject(i) && i['id'] === input['id']);
    next = applyEdits(next, modify(next, ['inputs', at >= 0 ? at : -1], input, { ...fo, isArrayInsertion: at < 0 }));
  }
  if (!next.endsWith('\n')) next += '\n';
  // The result must read back through the importers' reader with our entry in it.
  const check = parseForeignConfig(next, FORMAT[app]);
  if (!check.entries.some((e) => e.key === ENTRY_NAME)) throw new AppError('internal', 'The edited file did not read back as expected');
  return { text: next, replaces };
}

/** The preview: entry, file and the whole file after the change. Nothing is written. */
export async function setupPreview(ctx: SetupContext, args: GatewaySetupArgs): Promise<GatewaySetupPreview> {
  const file = targetFile(ctx, args);
  const { entry, input, notes } = buildEntry(ctx, args);
  const existing = await readExisting(file);
  const { text, replaces } = edit(existing, args.app, entry, input);
  if (replaces) notes.push(`The file already has an entry named "${ENTRY_NAME}"; it will be replaced.`);
  return {
    app: args.app,
    transport: args.transport,
    file,
    exists: existing !== undefined,
    entryName: ENTRY_NAME,
    entry: JSON.stringify({ [ENTRY_NAME]: entry }, null, 2),
    preview: text,
    replaces,
    notes,
  };
}

/** Writes the entry: the old file is copied aside first, the new one written atomically with the old mode. */
export async function setupInstall(ctx: SetupContext, args: GatewaySetupArgs): Promise<GatewaySetupResult> {
  if (args.transport === 'http' && args.app === 'cursor' && args.token === undefined)
    throw new AppError(
      'invalid_request',
      'An HTTP entry for Cursor needs this client’s token (rotate it to get a new one), or use the stdio entry.',
    );
  const file = targetFile(ctx, args);
  const { entry, input } = buildEntry(ctx, args);
  const existing = await readExisting(file);
  const { text } = edit(existing, args.app, entry, input);
  let backup: string | undefined;
  let mode = 0o600;
  if (existing !== undefined) {
    mode = (await stat(file)).mode & 0o777;
    backup = `${file}.switchboard-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await copyFile(file, backup, constants.COPYFILE_EXCL);
    } catch (err) {
      throw new AppError(
        'storage_failed',
        `The backup copy ${backup} could not be made (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was written.`,
      );
    }
  }
  try {
    await writeTextAtomic(file, text, mode);
  } catch (err) {
    throw new AppError('storage_failed', `${file} could not be written (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return { file, ...(backup ? { backup } : {}) };
}
