// The authorization code grant while it waits for the browser: the authorization URL as copyable text (headless, or
// when the browser did not open) and a field for the address the browser ended on, for a browser on another machine.
import { Button, CopyButton, Group, Stack, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import type { AuthStatus } from '../../../../shared/domains/auth';
import { useStore } from '../../store';
import type { AuthAction } from './auth-action';

/** The authorization URL and the paste-the-redirect form; nothing unless a browser sign-in is under way. */
export function AuthorizationCodePaste({ serverId, status, busy, act }: { serverId: string; status: AuthStatus } & AuthAction) {
  const mode = useStore((s) => s.info?.mode);
  const completeSignIn = useStore((s) => s.completeSignIn);
  const [pasted, setPasted] = useState('');
  const flow = status.flow;
  if (status.state !== 'in-progress' || !flow?.authorizationUrl) return null;
  return (
    <Stack gap="sm">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          readOnly
          label={
            mode === 'headless'
              ? 'Open this address in a browser to sign in'
              : 'Your browser was opened. If it did not open, use this address'
          }
          aria-label="Authorization URL"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={flow.authorizationUrl}
          onFocus={(e) => e.currentTarget.select()}
          style={{ flex: 1 }}
        />
        <CopyButton value={flow.authorizationUrl}>
          {({ copied, copy }) => (
            <Button leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            if (await completeSignIn(serverId, pasted)) setPasted('');
          });
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Or paste the address the browser ended on (starts with ${flow.redirectUri ?? 'http://127.0.0.1'})`}
            aria-label="Redirect URL"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={pasted}
            onChange={(e) => setPasted(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            style={{ flex: 1 }}
          />
          <Button type="submit" disabled={busy || pasted.trim() === ''}>
            Complete sign-in
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
