// Recent stderr and protocol events of the selected server. Repeated retry lines are folded; the view follows the
// newest line unless the person scrolled up to read; it is a focusable, labelled log region.
import { Badge, Box, Button, Group, Paper, Text, Title } from '@mantine/core';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { foldLogLines } from '../../lib/log-fold';
import { useStore } from '../../store';
import { selectSelectedLogs } from '../../store/servers-slice';
import { cleanText } from '../../ui/text';

const SHOWN = 500;

/** The server log. */
export function LogView() {
  const logs = useStore(selectSelectedLogs);
  const lines = useMemo(() => foldLogLines(logs).slice(-SHOWN), [logs]);
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const [behind, setBehind] = useState(false);
  const last = lines[lines.length - 1]?.entry.seq;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (follow.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [last, lines.length]);

  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = (): void => {
    const el = box.current;
    if (!el) return;
    follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
    if (follow.current) setBehind(false);
  };
  const jump = (): void => {
    const el = box.current;
    if (!el) return;
    follow.current = true;
    el.scrollTop = el.scrollHeight;
    setBehind(false);
  };

  return (
    <Box component="section" aria-labelledby="server-log-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="server-log-title">
          Log
        </Title>
        {behind && (
          <Button size="xs" variant="light" onClick={jump}>
            Show newest lines
          </Button>
        )}
      </Group>
      <Paper
        withBorder
        ref={box}
        role="log"
        aria-label="Server log"
        aria-live="off"
        tabIndex={0}
        className="sb-scroll-region"
        onScroll={onScroll}
        py={6}
        style={{ height: 260, overflowY: 'auto', resize: 'vertical' }}
      >
        {lines.length === 0 && (
          <Text size="sm" c="dimmed" px="sm">
            Nothing logged yet.
          </Text>
        )}
        {lines.map(({ entry: l, count }) => (
          <div key={l.seq} className="sb-log-line" data-level={l.level}>
            <Text span c="dimmed" inherit style={{ flex: 'none' }}>
              {new Date(l.time).toLocaleTimeString()}
            </Text>
            <Text span c="dimmed" inherit style={{ flex: 'none', minWidth: 56 }}>
              {l.source}
            </Text>
            <span style={{ minWidth: 0 }}>
              {cleanText(l.text)}
              {count > 1 && (
                <Badge size="xs" variant="light" color="gray" ml={6} radius="sm" tt="none" title={`Repeated ${count} times`}>
                  ×{count}
                </Badge>
              )}
            </span>
          </div>
        ))}
      </Paper>
    </Box>
  );
}
