// Words for gateway data: profile summaries and relative times.
import type { GatewayProfile, GatewayRequestView } from '../../../../shared/domains/gateway';
import { formatSize } from '../../../../shared/format-size';
import { countLabel } from '../../ui/count';

/** "All servers" or "2 servers: files, github". */
export function seesLabel(profile: GatewayProfile): string {
  const ids = [...new Set([...(profile.servers ?? []), ...(profile.groups ?? []).map((g) => g.replace(/^mcp:/, ''))])].sort();
  if (profile.servers === undefined && profile.groups === undefined) return 'All servers';
  if (ids.length === 0) return 'No servers';
  return `${countLabel(ids.length, 'server')}: ${ids.join(', ')}`;
}

/** How tools are exposed. */
export function modeLabel(profile: GatewayProfile): string {
  if (profile.mode === 'progressive') return 'Discovery tools first';
  return profile.names === 'original' ? 'All tools, own names' : 'All tools';
}

/** The write policy in words. */
export function writesLabel(profile: GatewayProfile): string {
  switch (profile.writes ?? 'ask') {
    case 'allow':
      return 'Writes allowed';
    case 'deny':
      return 'Allowed tools only';
    default:
      return 'Asks before each call';
  }
}

/** "just now", "5 min ago", "3 h ago", or a date. */
export function ago(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(at).toLocaleString();
}

/** Seconds left until `at`, never negative. */
export function secondsLeft(at: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The ask dialog's mark on shortened arguments: "showing 8,192 of 1,048,620 characters — 1,016 KiB hidden". */
export function shortenedLabel(ask: Pick<GatewayRequestView, 'arguments' | 'argumentsChars' | 'argumentsHiddenBytes'>): string {
  // The shown text ends with the cut mark "…", which is not part of the arguments.
  const shown = Math.max(0, ask.arguments.length - 1);
  return `showing ${shown.toLocaleString('en-US')} of ${ask.argumentsChars.toLocaleString('en-US')} characters — ${formatSize(ask.argumentsHiddenBytes)} hidden`;
}
