// Managing the registries the browser searches: the official MCP Registry by default, plus sub-registries that
// implement the same API (https, or http on this machine).
import { ActionIcon, Badge, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useStore } from '../../store';
import { selectRegistrySources } from '../../store/registry-slice';
import { AppDialog } from '../../ui/AppDialog';

/** The sources dialog. */
export function SourcesDialog() {
  const closeDialog = useStore((s) => s.closeDialog);
  const sources = useStore(selectRegistrySources);
  const addRegistrySource = useStore((s) => s.addRegistrySource);
  const removeRegistrySource = useStore((s) => s.removeRegistrySource);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    const problem = await addRegistrySource(url.trim());
    setBusy(false);
    setError(problem);
    if (problem === null) setUrl('');
  };
  return (
    <AppDialog opened onClose={closeDialog} title="Registry sources" size="lg" actions={<Button onClick={closeDialog}>Done</Button>}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Switchboard searches these registries. Any registry that implements the MCP Registry API can be added.
        </Text>
        <Stack gap={6} role="list" aria-label="Sources">
          {sources.length === 0 && <Text fz="sm">No sources: add one to browse.</Text>}
          {sources.map((s) => (
            <Group key={s.url} justify="space-between" wrap="nowrap" role="listitem">
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Text ff="monospace" fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  {s.url}
                </Text>
                {s.official && (
                  <Badge variant="light" tt="none">
                    Official
                  </Badge>
                )}
              </Group>
              <Tooltip label={`Remove ${s.url}`}>
                <ActionIcon color="red" aria-label={`Remove ${s.url}`} onClick={() => void removeRegistrySource(s.url).then(setError)}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
        </Stack>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Add a registry"
              placeholder="https://registry.example.com"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={error}
              style={{ flex: 1 }}
              spellCheck={false}
            />
            <Button type="submit" loading={busy} disabled={url.trim() === ''}>
              Add
            </Button>
          </Group>
        </form>
      </Stack>
    </AppDialog>
  );
}
