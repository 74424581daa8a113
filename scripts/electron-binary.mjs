// Where `npm start` finds Electron's binary, and what it does when it is missing. Electron 45 has no install
// script: its binary is downloaded by the package's own installer (install.js, also run on first require('electron')),
// so a plain `npm install` leaves none. `npm start` runs that installer when it can and says so; when it cannot, or
// the download fails, it prints the exact command to run.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The executable's path inside an Electron dist folder. */
export function executableName(platform = process.platform) {
  return platform === 'win32' ? 'electron.exe' : platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
}

/** The installed binary, or null. */
export function electronBinary({ pkgDir, env = process.env, platform = process.platform, exists = existsSync, read = readFileSync }) {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, executableName(platform));
    return exists(p) ? p : null;
  }
  const pathTxt = join(pkgDir, 'path.txt');
  if (!exists(pathTxt)) return null;
  const p = join(pkgDir, 'dist', String(read(pathTxt, 'utf8')).trim());
  return exists(p) ? p : null;
}

/** True for an environment value that turns something on ("1", "true", anything but "", "0", "false"). */
function on(value) {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * What `npm start` does: run the binary, fetch it with Electron's own installer first, or explain why it cannot
 * and which command fetches it.
 */
export function startPlan({ root, pkgDir, env = process.env, platform = process.platform, exists = existsSync, read = readFileSync }) {
  const bin = electronBinary({ pkgDir, env, platform, exists, read });
  if (bin) return { kind: 'run', bin };
  const headless = 'Or run the same app in your browser: npm run headless';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return {
      kind: 'cannot',
      message: `ELECTRON_OVERRIDE_DIST_PATH is set, but ${join(env.ELECTRON_OVERRIDE_DIST_PATH, executableName(platform))} does not exist. Point it at an unpacked Electron, or unset it to use the one npm installs. ${headless}`,
    };
  }
  const installer = join(pkgDir, 'install.js');
  if (!exists(installer)) {
    return { kind: 'cannot', message: `The electron package is not installed. Run: npm install   ${headless}` };
  }
  const command = `node ${relative(root, installer) || installer}`;
  if (on(env.ELECTRON_SKIP_BINARY_DOWNLOAD)) {
    return {
      kind: 'cannot',
      message: `Electron's binary is not downloaded, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so npm start does not fetch it. To fetch it (about 100 MB, once), run without that variable: ${command}   ${headless}`,
    };
  }
  let version = '';
  try {
    version = ` ${JSON.parse(String(read(join(pkgDir, 'package.json'), 'utf8'))).version}`;
  } catch {
    // the version is only for the message
  }
  return {
    kind: 'fetch',
    installer,
    command,
    message: `Electron${version}'s binary is not downloaded yet; fetching it now with Electron's own installer (about 100 MB, once)…`,
  };
}

/** The message when the fetch did not produce a binary. */
export function fetchFailedMessage(plan, status) {
  const how = status === null ? 'was stopped' : `ended with code ${status}`;
  return `Fetching Electron ${how}, and its binary is still missing (no network, a proxy, or a blocked download?). Fetch it with: ${plan.command}   (behind a proxy or mirror, see ELECTRON_GET_USE_PROXY and ELECTRON_MIRROR). Or run the same app in your browser: npm run headless`;
}
