// Browser permissions of MCP App frames in the desktop app. A request from a sandbox frame is granted only when
// the launch it belongs to (named in the frame's address) is still open and the person granted that very
// permission to the launch's server: camera for video, microphone for audio (both for a request that asks for
// both), geolocation, clipboard writing. The delegation list on the iframe is one layer; this is the one that holds
// when a frame asks anyway. A closed launch, an unknown one, the renderer's own top frame, and any other permission
// are denied.
import type { AppPermission } from '../../shared/domains/apps.js';

/** What a permission request or check says about itself (the parts of Electron's details read here). */
export interface PermissionDetails {
  isMainFrame?: boolean;
  requestingUrl?: string;
  /** Media requests: what is asked for. */
  mediaTypes?: readonly ('video' | 'audio')[];
  /** Media checks: what is checked. */
  mediaType?: 'video' | 'audio' | 'unknown';
}

/** The app permissions an Electron permission stands for, or undefined when no app may have it. */
export function appPermissionsFor(permission: string, details: PermissionDetails): AppPermission[] | undefined {
  if (permission === 'geolocation') return ['geolocation'];
  if (permission === 'clipboard-sanitized-write') return ['clipboardWrite'];
  if (permission !== 'media') return undefined;
  const kinds = details.mediaTypes ?? (details.mediaType && details.mediaType !== 'unknown' ? [details.mediaType] : []);
  if (kinds.length === 0) return undefined;
  return kinds.map((k) => (k === 'video' ? 'camera' : 'microphone'));
}

/** The launch a sandbox frame belongs to (`<sandbox origin>/…?launch=ID`), or undefined for any other address. */
export function launchOfSandboxUrl(url: string | undefined, sandboxOrigin: string): string | undefined {
  if (!url?.startsWith(`${sandboxOrigin}/`)) return undefined;
  try {
    return new URL(url).searchParams.get('launch') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Whether an app frame may have the permission: its launch is open and holds every app permission it stands for. */
export function appFrameAllowed(
  permission: string,
  details: PermissionDetails,
  sandboxOrigin: string,
  grantedTo: (launchId: string) => readonly AppPermission[] | undefined,
): boolean {
  if (details.isMainFrame) return false;
  const launchId = launchOfSandboxUrl(details.requestingUrl, sandboxOrigin);
  if (launchId === undefined) return false;
  const wanted = appPermissionsFor(permission, details);
  const granted = grantedTo(launchId);
  return wanted !== undefined && granted !== undefined && wanted.every((p) => granted.includes(p));
}
