// A static bearer token instead of OAuth: write-only (once stored it leaves the form), cleared with its own button.
import { Button, Group, PasswordInput, Text } from '@mantine/core';
import { useState } from 'react';
import type { AuthStatus } from '../../../../shared/domains/auth';
import { useStore } from '../../store';
import type { AuthAction } from './auth-action';

/** Save or clear the server's bearer token. */
export function BearerTokenForm({ serverId, status, busy, act }: { serverId: string; status: AuthStatus } & AuthAction) {
  const setBearer = useStore((s) => s.setBearer);
  const [bearer, setBearerText] = useState('');
  return (
    <>
      <Text size="sm" c="dimmed" mb="xs">
        {status.bearerSet ? 'A token is stored in the credential store.' : 'No token is stored.'}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            if (await setBearer(serverId, bearer.trim())) setBearerText('');
          });
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <PasswordInput
            label="Bearer token"
            description="Sent as Authorization: Bearer …; kept in the credential store, never shown again."
            value={bearer}
            onChange={(e) => setBearerText(e.currentTarget.value)}
            autoComplete="off"
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="filled" disabled={busy || bearer.trim() === ''}>
            Save token
          </Button>
          <Button
            color="red"
            variant="light"
            disabled={busy || status.bearerSet !== true}
            onClick={() => void act(() => setBearer(serverId, null))}
          >
            Clear token
          </Button>
        </Group>
      </form>
    </>
  );
}
