// Folders a person shares with a server: an absolute path or a file:// URI in, the file:// URI roots/list sends out.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RootInput, RootView } from '../../../shared/domains/protocol.js';
import { AppError } from '../../../shared/errors.js';

/** A stored root: what roots/list sends. */
export interface StoredRoot {
  /** `file://` URI. */
  uri: string;
  /** Display name. */
  name?: string;
}

/** Turns what the person typed or picked into a root; refuses relative paths, other schemes and control characters. */
export function toRoot(input: RootInput): StoredRoot {
  const raw = input.path.trim();
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw new AppError('invalid_request', 'A folder path cannot contain control characters');
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('invalid_request', `Not a valid URI: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'file:')
      throw new AppError('invalid_request', 'Only folders on this machine (file:// URIs) can be shared as roots');
    if (url.host !== '' && url.host !== 'localhost')
      throw new AppError('invalid_request', 'Only folders on this machine can be shared as roots');
    path = fileURLToPath(url);
  } else {
    if (!isAbsolute(raw)) throw new AppError('invalid_request', `Enter a full folder path (starting with /), not "${raw.slice(0, 200)}"`);
    path = resolve(raw);
  }
  const name = input.name?.trim();
  return { uri: pathToFileURL(path).href, ...(name ? { name } : {}) };
}

/** A stored root as the renderer shows it: URI, path and whether the folder exists right now. */
export function rootView(root: StoredRoot): RootView {
  let path = root.uri;
  try {
    path = fileURLToPath(root.uri);
  } catch {
    // A stored URI that no longer parses is shown as it is.
  }
  let exists = false;
  try {
    exists = existsSync(path) && statSync(path).isDirectory();
  } catch {
    exists = false;
  }
  return { uri: root.uri, path, exists, ...(root.name ? { name: root.name } : {}) };
}
