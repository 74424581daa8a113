// Adding or editing a gateway client: its name and profile (which servers it sees, how tools are exposed, what
// happens to writes).
import { Alert, Badge, Button, Checkbox, Group, MultiSelect, Radio, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { GatewayClientView, GatewayMode, GatewayProfile, GatewayWritePolicy } from '../../../../shared/domains/gateway';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { selectServerList } from '../../store/servers-slice';
import { AppDialog } from '../../ui/AppDialog';
import './gateway.css';

/** Props of ClientDialog. */
export interface ClientDialogProps {
  /** The client to edit; absent to add one. */
  existing?: GatewayClientView;
  onClose: () => void;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

/** The add/edit client dialog. */
export function ClientDialog({ existing, onClose }: ClientDialogProps) {
  const servers = useStore(useShallow(selectServerList));
  const add = useStore((s) => s.addGatewayClient);
  const update = useStore((s) => s.updateGatewayClient);
  const loadGateway = useStore((s) => s.loadGateway);
  // Webhook relay servers carry Switchboard's own webhook deliveries: the core refuses them in any profile (and serves
  // none from a stored one), so they are offered here as not selectable, with why.
  const relayIds = useStore(useShallow((s) => s.gatewayStatus?.relayServers ?? []));
  useEffect(() => {
    // A server becomes a relay when a subscription reads through it or its tools are listed: read the list afresh.
    void loadGateway();
  }, [loadGateway]);
  const relays = new Set(relayIds);
  const label = (id: string): string => {
    const s = servers.find((x) => x.id === id);
    return s === undefined || s.name === s.id ? id : `${s.name} (${s.id})`;
  };
  const start = existing?.profile;
  const [name, setName] = useState(existing?.name ?? '');
  const [mode, setMode] = useState<GatewayMode>(start?.mode ?? 'progressive');
  const [everything, setEverything] = useState(start ? start.servers === undefined && start.groups === undefined : true);
  const [chosen, setChosen] = useState<string[]>(
    start ? [...new Set([...(start.servers ?? []), ...(start.groups ?? []).map((g) => g.slice(4))])] : [],
  );
  const [writes, setWrites] = useState<GatewayWritePolicy>(start?.writes ?? 'ask');
  const [original, setOriginal] = useState(start?.names === 'original');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const trimmed = name.trim();
  const nameError =
    trimmed.length > 0 && !NAME.test(trimmed) ? 'Use 1–64 letters, digits, spaces, “.”, “_” or “-”, starting with a letter or digit' : null;
  // A stored profile may name a server that became a relay since: it is not served, and saving leaves it out.
  const chosenRelays = chosen.filter((id) => relays.has(id));
  const servable = chosen.filter((id) => !relays.has(id));
  const canOriginal = mode === 'all' && !everything && servable.length === 1;
  const valid = trimmed.length > 0 && !nameError && (everything || servable.length > 0);

  const save = async (): Promise<void> => {
    const profile: GatewayProfile = {
      mode,
      ...(everything ? {} : { servers: servable }),
      writes,
      names: canOriginal && original ? 'original' : 'local',
    };
    setSaving(true);
    setError(null);
    const result = existing ? await update(existing.id, { name: trimmed, profile }) : await add(trimmed, profile);
    setSaving(false);
    if (result.ok) onClose();
    else setError(result.error);
  };

  return (
    <AppDialog
      opened
      onClose={onClose}
      title={existing ? `Edit ${existing.name}` : 'Add a gateway client'}
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="filled" onClick={() => void save()} disabled={!valid} loading={saving}>
            {existing ? 'Save' : 'Add client'}
          </Button>
        </>
      }
    >
      <Stack gap="md" className="sb-gw">
        <TextInput
          label="Name"
          description="Used in the set-up entry (switchboard-gateway --client NAME) and in the history."
          placeholder="Claude Desktop"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          required
          data-autofocus
        />
        <Radio.Group label="Tools" value={mode} onChange={(v) => setMode(v as GatewayMode)}>
          <Stack gap="xs" mt={6}>
            <Radio
              value="progressive"
              label="Discovery tools first"
              description="The app starts with tools_groups, tools_select and tools_search and adds what it needs (best for many tools)."
            />
            <Radio value="all" label="All tools at once" description="Every tool it may use, under names like mcp__server__tool." />
          </Stack>
        </Radio.Group>
        <Stack gap={6}>
          <Checkbox
            label="All servers, including ones added later"
            checked={everything}
            onChange={(e) => setEverything(e.currentTarget.checked)}
          />
          {!everything && (
            <MultiSelect
              label="Servers it sees"
              placeholder={chosen.length === 0 ? 'Pick servers' : undefined}
              data={servers.map((s) => ({
                value: s.id,
                label: relays.has(s.id) ? `${label(s.id)}: webhook relay, not available` : label(s.id),
                disabled: relays.has(s.id),
              }))}
              value={chosen}
              onChange={setChosen}
              searchable
              nothingFoundMessage="No server with that name"
              description={servable.length === 0 ? 'Pick at least one server.' : undefined}
            />
          )}
          {relayIds.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="relay-note">
              {relayIds.map(label).join(', ')} {relayIds.length === 1 ? 'is a webhook relay server' : 'are webhook relay servers'}:{' '}
              {relayIds.length === 1 ? 'it carries' : 'they carry'} Switchboard’s own webhook deliveries, so no gateway client is given{' '}
              {relayIds.length === 1 ? 'it' : 'them'}
              {everything ? ', not even one that sees all servers.' : '.'}
            </Text>
          )}
          {!everything && chosenRelays.length > 0 && (
            <Alert color="yellow" role="status" data-testid="relay-dropped">
              This client’s profile names {chosenRelays.map(label).join(', ')}, which this client is not given (a webhook relay server).
              Saving leaves {chosenRelays.length === 1 ? 'it' : 'them'} out of the profile.
            </Alert>
          )}
          {canOriginal && (
            <Checkbox
              label="Use the server's own tool, prompt and resource names"
              description="Only with one server, where names cannot collide."
              checked={original}
              onChange={(e) => setOriginal(e.currentTarget.checked)}
            />
          )}
        </Stack>
        <Stack gap={4}>
          <Text fw={500} size="sm" id="writes-label">
            Tool calls you have not allowed for this client
          </Text>
          <SegmentedControl
            aria-labelledby="writes-label"
            value={writes}
            onChange={(v) => setWrites(v as GatewayWritePolicy)}
            data={[
              { value: 'ask', label: 'Ask me' },
              { value: 'allow', label: 'Allow' },
              { value: 'deny', label: 'Deny' },
            ]}
          />
          <Text size="xs" c="dimmed">
            {writes === 'ask'
              ? 'Switchboard shows each such call and waits for your yes or no (until the call’s deadline); “Trust this tool” remembers a tool for this client.'
              : writes === 'allow'
                ? 'Every call runs without asking.'
                : 'Only the tools you allowed for this client run. A server calling a tool read-only is not enough.'}
          </Text>
        </Stack>
        {existing && writes !== 'allow' && <TrustedTools client={existing} />}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}

/** The tools the person allowed for a client without asking, each removable; a tool can be added by name. */
function TrustedTools({ client }: { client: GatewayClientView }) {
  const live = useStore((s) => s.gatewayClients.find((c) => c.id === client.id)) ?? client;
  const trust = useStore((s) => s.trustGatewayTool);
  const loadGateway = useStore((s) => s.loadGateway);
  // A "Trust this tool" answered a moment ago may not be in the list yet: read it afresh when the dialog opens.
  useEffect(() => {
    void loadGateway();
  }, [loadGateway]);
  const [tool, setTool] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = async (name: string, trusted: boolean): Promise<void> => {
    setError(null);
    const result = await trust(client.id, name, trusted);
    if (!result.ok) setError(result.error);
    else if (trusted) setTool('');
  };
  return (
    <Stack gap={4} aria-label="Tools allowed without asking" role="group">
      <Text fw={500} size="sm">
        Allowed without asking
      </Text>
      {live.trustedTools.length === 0 ? (
        <Text size="xs" c="dimmed">
          None yet.
        </Text>
      ) : (
        <Stack gap={2} component="ul" p={0} m={0} className="sb-gw-list">
          {live.trustedTools.map((t) => (
            <Group key={t.tool} gap="xs" component="li" wrap="nowrap">
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {t.tool}
              </Text>
              {!t.current && (
                <Badge color="yellow" variant="light" title="The tool changed or is gone since you allowed it; it asks again">
                  changed
                </Badge>
              )}
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => void change(t.tool, false)}
                aria-label={`Stop allowing ${t.tool}`}
              >
                Remove
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          size="xs"
          label="Allow a tool"
          placeholder="mcp__server__tool"
          value={tool}
          onChange={(e) => setTool(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button size="xs" variant="default" disabled={tool.trim() === ''} onClick={() => void change(tool.trim(), true)}>
          Allow
        </Button>
      </Group>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
