// Sign-in of one HTTP/SSE server: the tab's shell (status, sign in and out, the flow) and one part per way of signing
// in: the device code (auth/DeviceSignIn), the authorization code's paste-the-redirect (auth/AuthorizationCodePaste),
// a static bearer token (auth/BearerTokenForm) and the OAuth client with each grant's fields (auth/ClientSettingsForm).
// Secrets are write-only: once stored they leave the form (and the page).
import { Accordion, Alert, Box, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconLogin, IconLogout } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';
import { AuthorizationCodePaste } from './AuthorizationCodePaste';
import { BearerTokenForm } from './BearerTokenForm';
import { ClientSettingsForm } from './ClientSettingsForm';
import { DeviceSignIn } from './DeviceSignIn';
import { SignInSteps } from './SignInSteps';

const STATE_TEXT = {
  'signed-out': 'Signed out',
  'signed-in': 'Signed in',
  'needs-auth': 'Sign-in needed',
  'in-progress': 'Signing in…',
} as const;

/** The sign-in tab. */
export function AuthPanel({ serverId }: { serverId: string }) {
  const status = useStore((s) => s.authById[serverId]);
  const error = useStore((s) => s.authErrors[serverId]);
  const loadAuth = useStore((s) => s.loadAuth);
  const beginSignIn = useStore((s) => s.beginSignIn);
  const signOut = useStore((s) => s.signOut);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadAuth(serverId);
  }, [serverId, loadAuth]);

  if (status === undefined) {
    return (
      <Box role="region" aria-label="Sign-in">
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : (
          <Text c="dimmed">Loading…</Text>
        )}
      </Box>
    );
  }
  const act = async (fn: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  const signedOut = status.state === 'signed-out';

  return (
    <Stack role="region" aria-label="Sign-in" gap="md" maw={760}>
      <Box>
        <Text data-testid="auth-state" size="md">
          <Text span fw={600} inherit>
            {STATE_TEXT[status.state]}
          </Text>
          {status.issuer ? ` with ${cleanText(status.issuer)}` : ''}
          {status.expiresAt ? ` · token expires ${new Date(status.expiresAt).toLocaleString()}` : ''}
        </Text>
        {status.scopes?.length ? (
          <Text size="sm" c="dimmed">
            Scopes: {cleanText(status.scopes.join(' '))}
          </Text>
        ) : null}
        {status.dpop ? (
          <Text size="sm" data-testid="auth-dpop">
            Tokens are DPoP-bound: every request is signed with this server’s own key, which stays in the credential store. Key thumbprint:{' '}
            <Code className="sb-mono">{cleanText(status.dpop.thumbprint)}</Code>
          </Text>
        ) : null}
        {status.state === 'needs-auth' && status.reason ? (
          <Text size="sm" role="status">
            {cleanText(status.reason)}
          </Text>
        ) : null}
        {status.requiredScope ? (
          <Text size="sm" c="dimmed">
            The server asks for: {cleanText(status.requiredScope)}
          </Text>
        ) : null}
      </Box>
      {error ? (
        <Alert color="red" variant="light" role="alert" p="sm">
          {cleanText(error)}
        </Alert>
      ) : null}

      <Group gap="xs">
        <Button
          variant="filled"
          leftSection={<IconLogin size={16} aria-hidden />}
          disabled={busy || status.bearerSet === true}
          onClick={() => void act(() => beginSignIn(serverId))}
        >
          Sign in
        </Button>
        <Button
          leftSection={<IconLogout size={16} aria-hidden />}
          disabled={busy || signedOut}
          onClick={() => void act(() => signOut(serverId))}
        >
          Sign out
        </Button>
      </Group>
      {status.bearerSet === true && (
        <Text size="sm" c="dimmed">
          A static bearer token is set; clear it below to sign in with OAuth instead.
        </Text>
      )}

      <DeviceSignIn serverId={serverId} status={status} />
      <SignInSteps status={status} />
      <AuthorizationCodePaste serverId={serverId} status={status} busy={busy} act={act} />

      <Accordion multiple variant="separated" chevronPosition="left">
        <Accordion.Item value="bearer">
          <Accordion.Control>Static bearer token</Accordion.Control>
          <Accordion.Panel>
            <BearerTokenForm serverId={serverId} status={status} busy={busy} act={act} />
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="client">
          <Accordion.Control>Client settings</Accordion.Control>
          <Accordion.Panel>
            <ClientSettingsForm serverId={serverId} status={status} busy={busy} act={act} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}
