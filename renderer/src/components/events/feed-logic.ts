// Pure helpers of the events feed view: merging pages and live arrivals without duplicates, time presets, status
// lines, and making control/bidi characters visible. (The filter a live entry must match is the core's own,
// shared/domains/events-filter.ts.)
import type { FeedEntry, SubscriptionView } from '../../../../shared/domains/events';
import { escapeAsJson } from '../../../../shared/untrusted-text';
import { countLabel } from '../../ui/count';

/** Server text shown as-is except that control, bidi and invisible characters become visible `\uXXXX` escapes. */
export function visible(text: string): string {
  return escapeAsJson(text);
}

/** Puts newer entries in front of a newest-first list, dropping any already there. */
export function prependNewer(list: readonly FeedEntry[], newer: readonly FeedEntry[]): FeedEntry[] {
  const top = list[0]?.seq ?? 0;
  const fresh = newer.filter((e) => e.seq > top).sort((a, b) => b.seq - a.seq);
  return fresh.length === 0 ? [...list] : [...fresh, ...list];
}

/** Appends an older page to a newest-first list, dropping any already there. */
export function appendOlder(list: readonly FeedEntry[], older: readonly FeedEntry[]): FeedEntry[] {
  const bottom = list.at(-1)?.seq ?? Number.POSITIVE_INFINITY;
  return [...list, ...older.filter((e) => e.seq < bottom)];
}

/** Time windows offered by the filter. */
export const TIME_PRESETS = [
  { value: 'all', label: 'Any time', ms: undefined },
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 60 * 60_000 },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * 60 * 60_000 },
] as const;

/** A time preset's key. */
export type TimePreset = (typeof TIME_PRESETS)[number]['value'];

/** The `since` of a preset, from `now`. */
export function sinceOf(preset: TimePreset, now: number): number | undefined {
  const ms = TIME_PRESETS.find((p) => p.value === preset)?.ms;
  return ms === undefined ? undefined : now - ms;
}

/** A duration in words: "5 s", "2 min", "1 h 5 min". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

/** What a webhook subscription's rate limit means for the person, as of `now` (`until`: when the server expects it to end). */
export function throttleLabel(until: number | undefined, now: number): string {
  const base = 'the server is delaying deliveries (rate limit), so events arrive late';
  return until !== undefined && until > now ? `${base}, for about ${duration(until - now)} more` : base;
}

/** One line saying what a subscription is doing, as of `now`. */
export function statusLine(sub: SubscriptionView, now: number): string {
  const st = sub.status;
  switch (st.state) {
    case 'polling':
      return st.pollEveryMs !== undefined ? `Polling every ${duration(st.pollEveryMs)}` : 'Polling';
    case 'streaming':
      return 'Streaming';
    case 'registered':
      return st.refreshAt !== undefined ? `Webhook registered, refresh in ${duration(st.refreshAt - now)}` : 'Webhook registered';
    case 'retrying':
      return `Retrying in ${duration((st.retryAt ?? now) - now)}${st.reason ? `: ${st.reason}` : ''}`;
    case 'waiting':
      return st.reason ?? 'Waiting for the server';
    case 'starting':
      return 'Starting';
    case 'paused':
      return 'Paused';
    case 'ended':
      return `Ended${st.reason ? `: ${st.reason}` : ''}`;
  }
}

/** The colour of a subscription state's badge. */
export function stateColor(state: SubscriptionView['status']['state']): string {
  switch (state) {
    case 'streaming':
    case 'polling':
    case 'registered':
      return 'teal';
    case 'retrying':
    case 'waiting':
    case 'starting':
      return 'yellow';
    case 'paused':
      return 'gray';
    case 'ended':
      return 'red';
  }
}

/** A time for the feed: "14:03:27" today, else "Mar 4, 14:03". */
export function clock(ms: number, now: number): string {
  const d = new Date(ms);
  const today = new Date(now);
  const sameDay = d.toDateString() === today.toDateString();
  return sameDay
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A one-line preview of an entry's payload or message (no line breaks, cut). */
export function preview(e: FeedEntry, max = 160): string {
  const text = e.kind === 'event' ? (e.data ?? '') : (e.message ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The feed's count line: how many entries are loaded and, when more match, of how many ("60 of 412 entries"). */
export function feedCountText(shown: number, total: number | undefined): string {
  const all = Math.max(shown, total ?? shown);
  if (all === 0) return 'No entries';
  if (all === shown) return `${countLabel(shown, 'entry', 'entries')} shown`;
  return `${shown.toLocaleString('en')} of ${countLabel(all, 'entry', 'entries')} shown`;
}
