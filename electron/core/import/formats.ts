// Reading and writing other apps' MCP config files: Claude Desktop, VS Code and Cursor.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ImportFormat } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';

/** One raw entry found in a foreign config file. */
export interface RawEntry {
  /** The entry's key in the file. */
  key: string;
  /** The entry object as written (unvalidated). */
  value: unknown;
}

/** A VS Code `inputs` item: a value the user is prompted for. */
export interface RawInput {
  /** Input id, referenced as ${input:id}. */
  id: string;
  /** Description shown to the user. */
  description: string;
}

/** A foreign config file reduced to its server entries. */
export interface ParsedFile {
  /** Format that was detected or requested. */
  format: ImportFormat;
  /** Server entries in file order. */
  entries: RawEntry[];
  /** VS Code inputs by id. */
  inputs: Map<string, RawInput>;
}

/** Parses JSON or JSONC text and finds its server entries; throws config_invalid when it has none. */
export function parseForeignConfig(text: string, requested?: ImportFormat): ParsedFile {
  const errors: ParseError[] = [];
  const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new AppError('config_invalid', `The text is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset})`);
  }
  if (!isObject(root)) throw new AppError('config_invalid', 'The text must be a JSON object');
  const container = isObject(root['mcp']) ? root['mcp'] : root;
  let format: ImportFormat;
  let servers: unknown;
  if (requested === 'vscode' || (requested === undefined && isObject(container['servers']) && !('mcpServers' in container))) {
    format = 'vscode';
    servers = container['servers'];
  } else {
    format = requested ?? 'claude';
    servers = container['mcpServers'];
  }
  if (!isObject(servers)) {
    const want = format === 'vscode' ? '"servers"' : '"mcpServers"';
    throw new AppError('config_invalid', `No ${want} object found in the text`);
  }
  const inputs = new Map<string, RawInput>();
  const rawInputs = container['inputs'];
  if (Array.isArray(rawInputs)) {
    for (const item of rawInputs) {
      if (isObject(item) && typeof item['id'] === 'string') {
        inputs.set(item['id'], { id: item['id'], description: typeof item['description'] === 'string' ? item['description'] : item['id'] });
      }
    }
  }
  return { format, entries: Object.entries(servers).map(([key, value]) => ({ key, value })), inputs };
}

/** The canonical file name for an export in each format. */
export function exportFileName(format: ImportFormat): string {
  return format === 'claude' ? 'claude_desktop_config.json' : 'mcp.json';
}
