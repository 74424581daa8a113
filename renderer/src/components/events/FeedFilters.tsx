// The feed's filters: text over payloads, servers, event type, subscription, kinds and a time window.
import { Button, Chip, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { FeedEntryKind } from '../../../../shared/domains/events';
import { TIME_PRESETS, visible, type TimePreset } from './feed-logic';
import { ALL_KINDS, EMPTY_QUERY, type FeedQuery } from './feed-query';

const KIND_LABEL: Record<FeedEntryKind, string> = { event: 'Events', gap: 'Gaps', error: 'Errors', activity: 'Host activity' };

/** What the filter offers to choose from. */
export interface FilterChoices {
  servers: { value: string; label: string }[];
  types: string[];
  subscriptions: { value: string; label: string }[];
}

/** The filter bar; `onChange` gets the whole new query (the text after a short pause in typing). */
export function FeedFilters({ query, choices, onChange }: { query: FeedQuery; choices: FilterChoices; onChange: (q: FeedQuery) => void }) {
  const [text, setText] = useState(query.q);
  useEffect(() => setText(query.q), [query.q]);
  useEffect(() => {
    if (text === query.q) return;
    const timer = setTimeout(() => onChange({ ...query, q: text }), 250);
    return () => clearTimeout(timer);
  }, [text, query, onChange]);
  const filtered =
    query.servers.length > 0 ||
    query.type !== null ||
    query.sub !== null ||
    query.kinds.length < ALL_KINDS.length ||
    query.time !== 'all' ||
    query.q !== '';
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" role="search" aria-label="Filter the feed">
      <TextInput
        label="Search"
        placeholder="Payloads, names, event ids…"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        w={240}
        data-testid="feed-search"
      />
      <MultiSelect
        label="Servers"
        placeholder={query.servers.length === 0 ? 'All servers' : undefined}
        data={choices.servers}
        value={query.servers}
        onChange={(servers) => onChange({ ...query, servers })}
        clearable
        searchable
        w={220}
        data-testid="feed-server-filter"
      />
      <Select
        label="Event type"
        placeholder="All types"
        data={choices.types.map((t) => ({ value: t, label: visible(t) }))}
        value={query.type}
        onChange={(type) => onChange({ ...query, type })}
        clearable
        searchable
        w={180}
      />
      <Select
        label="Subscription"
        placeholder="All subscriptions"
        data={choices.subscriptions}
        value={query.sub}
        onChange={(sub) => onChange({ ...query, sub })}
        clearable
        w={200}
      />
      <Select
        label="Time"
        data={TIME_PRESETS.map((p) => ({ value: p.value, label: p.label }))}
        value={query.time}
        onChange={(time) => onChange({ ...query, time: (time ?? 'all') as TimePreset })}
        allowDeselect={false}
        w={160}
      />
      <Chip.Group
        multiple
        value={query.kinds}
        onChange={(kinds) => kinds.length > 0 && onChange({ ...query, kinds: ALL_KINDS.filter((k) => kinds.includes(k)) })}
      >
        <Group gap={6} aria-label="Kinds of entries" role="group" pb={4}>
          {ALL_KINDS.map((k) => (
            <Chip key={k} value={k} size="sm">
              {KIND_LABEL[k]}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {filtered && (
        <Button variant="subtle" leftSection={<IconX size={14} aria-hidden />} onClick={() => onChange(EMPTY_QUERY)} mb={2}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
