// Sign-in of one HTTP/SSE server: status, flow steps, paste-the-redirect, bearer token, client settings, sign out.
// Secrets are write-only: once stored they leave the form (and the page).
import {
  Accordion,
  Alert,
  Box,
  Button,
  CopyButton,
  Group,
  List,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { IconArrowRight, IconCheck, IconCopy, IconLogin, IconLogout, IconPoint, IconX } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { AuthStep, ClientSettingsInput, ClientSettingsView } from '../../../shared/domains/auth';
import { useStore } from '../store';
import { cleanText } from '../ui/text';

const STEPS: { step: AuthStep; label: string }[] = [
  { step: 'discovery', label: 'Discovery' },
  { step: 'registration', label: 'Registration' },
  { step: 'browser', label: 'Browser' },
  { step: 'token', label: 'Token' },
];

const STATE_TEXT = {
  'signed-out': 'Signed out',
  'signed-in': 'Signed in',
  'needs-auth': 'Sign-in needed',
  'in-progress': 'Signing in…',
} as const;

type StepState = 'done' | 'current' | 'failed' | 'pending';

const STEP_ICON: Record<StepState, { icon: ReactNode; color: string; words: string }> = {
  done: { icon: <IconCheck size={14} aria-hidden />, color: 'green', words: 'done' },
  current: { icon: <IconArrowRight size={14} aria-hidden />, color: 'blue', words: 'in progress' },
  failed: { icon: <IconX size={14} aria-hidden />, color: 'red', words: 'failed' },
  pending: { icon: <IconPoint size={14} aria-hidden />, color: 'gray', words: 'not started' },
};

/** The sign-in tab. */
export function AuthPanel({ serverId }: { serverId: string }) {
  const status = useStore((s) => s.authById[serverId]);
  const error = useStore((s) => s.authErrors[serverId]);
  const mode = useStore((s) => s.info?.mode);
  const loadAuth = useStore((s) => s.loadAuth);
  const beginSignIn = useStore((s) => s.beginSignIn);
  const completeSignIn = useStore((s) => s.completeSignIn);
  const signOut = useStore((s) => s.signOut);
  const setBearer = useStore((s) => s.setBearer);
  const setClient = useStore((s) => s.setClient);
  const [pasted, setPasted] = useState('');
  const [bearer, setBearerText] = useState('');
  const [client, setClientForm] = useState<ClientSettingsInput>({ grant: 'authorization_code' });
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
  const flow = status.flow;
  const current = flow ? STEPS.findIndex((s) => s.step === flow.step) : -1;
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

      {flow ? (
        <List aria-label="Sign-in steps" spacing={4} size="sm" center>
          {STEPS.map((s, i) => {
            const failed = flow.failed?.step === s.step;
            const state: StepState = failed
              ? 'failed'
              : i < current || (i === current && !flow.failed && status.state !== 'in-progress')
                ? 'done'
                : i === current
                  ? 'current'
                  : 'pending';
            const look = STEP_ICON[state];
            return (
              <List.Item
                key={s.step}
                data-step={s.step}
                data-state={state}
                icon={
                  <ThemeIcon size={20} radius="xl" color={look.color} variant="light">
                    {look.icon}
                  </ThemeIcon>
                }
              >
                <Text span size="sm" fw={state === 'current' ? 600 : 400} c={state === 'failed' ? 'red' : undefined}>
                  {s.label}
                </Text>
                <Text span size="xs" c="dimmed">
                  {` (${look.words})`}
                </Text>
                {failed ? (
                  <Text size="sm" c="red">
                    {cleanText(flow.failed?.message ?? '')}
                  </Text>
                ) : null}
              </List.Item>
            );
          })}
        </List>
      ) : null}

      {status.state === 'in-progress' && flow?.authorizationUrl ? (
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
      ) : null}

      <Accordion multiple variant="separated" chevronPosition="left">
        <Accordion.Item value="bearer">
          <Accordion.Control>Static bearer token</Accordion.Control>
          <Accordion.Panel>
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
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="client">
          <Accordion.Control>Client settings</Accordion.Control>
          <Accordion.Panel>
            <Text size="sm" c="dimmed" mb="sm">
              {status.client
                ? `Configured: ${status.client.grant}${status.client.clientId ? `, client id ${cleanText(status.client.clientId)}` : ''}${
                    status.client.hasSecret ? ', secret stored' : ''
                  }${status.client.hasPrivateKey ? ', private key stored' : ''}${
                    status.client.idpIssuer ? `, identity provider ${cleanText(status.client.idpIssuer)}` : ''
                  }${status.client.hasIdToken ? ', ID token stored' : ''}`
                : 'None: dynamic registration (or a metadata document) is used.'}
            </Text>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const clean = Object.fromEntries(
                  Object.entries(client).filter(([, v]) => v !== '' && v !== undefined),
                ) as unknown as ClientSettingsInput;
                void act(async () => {
                  if (await setClient(serverId, clean))
                    setClientForm(({ clientSecret: _s, privateKeyPem: _k, idpClientSecret: _i, idToken: _t, ...rest }) => rest);
                });
              }}
            >
              <Stack gap="sm">
                <NativeSelect
                  label="Grant"
                  value={client.grant}
                  onChange={(e) => setClientForm({ ...client, grant: e.currentTarget.value as ClientSettingsInput['grant'] })}
                  data={[
                    { value: 'authorization_code', label: 'Authorization code (browser)' },
                    { value: 'client_credentials', label: 'Client credentials (no browser)' },
                    { value: 'cross_app_access', label: 'Enterprise sign-in (Cross-App Access)' },
                  ]}
                />
                <TextInput
                  label="Client id"
                  value={client.clientId ?? ''}
                  onChange={(e) => setClientForm({ ...client, clientId: e.currentTarget.value })}
                />
                <PasswordInput
                  label="Client secret"
                  value={client.clientSecret ?? ''}
                  onChange={(e) => setClientForm({ ...client, clientSecret: e.currentTarget.value })}
                  autoComplete="off"
                  placeholder={status.client?.hasSecret ? 'stored; leave empty to keep' : undefined}
                />
                {client.grant === 'client_credentials' ? (
                  <>
                    <NativeSelect
                      label="Client authentication"
                      value={client.authMethod ?? 'client_secret_basic'}
                      onChange={(e) => setClientForm({ ...client, authMethod: e.currentTarget.value as ClientSettingsInput['authMethod'] })}
                      data={['client_secret_basic', 'client_secret_post', 'private_key_jwt']}
                    />
                    <TextInput
                      label="Authorization server issuer (the secret is sent only there)"
                      value={client.issuer ?? ''}
                      onChange={(e) => setClientForm({ ...client, issuer: e.currentTarget.value })}
                      placeholder="https://…"
                    />
                    {client.authMethod === 'private_key_jwt' ? (
                      <Textarea
                        label="Private key (PEM)"
                        rows={4}
                        resize="vertical"
                        value={client.privateKeyPem ?? ''}
                        onChange={(e) => setClientForm({ ...client, privateKeyPem: e.currentTarget.value })}
                        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                      />
                    ) : null}
                  </>
                ) : client.grant === 'cross_app_access' ? (
                  <CrossAppAccessFields client={client} onChange={setClientForm} status={status.client} />
                ) : (
                  <TextInput
                    label="Client metadata document URL"
                    value={client.metadataUrl ?? ''}
                    onChange={(e) => setClientForm({ ...client, metadataUrl: e.currentTarget.value })}
                    placeholder="https://…"
                  />
                )}
                <Group gap="xs">
                  <Button type="submit" variant="filled" disabled={busy}>
                    Save client
                  </Button>
                  <Button
                    color="red"
                    variant="light"
                    disabled={busy || !status.client}
                    onClick={() => void act(() => setClient(serverId, null))}
                  >
                    Remove client
                  </Button>
                </Group>
              </Stack>
            </form>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}

/**
 * Cross-App Access (SEP-990): the ID token from the person's enterprise sign-in is exchanged at the identity provider
 * for a grant this server's authorization server accepts. Secrets are write-only: left empty, the stored one stays.
 */
function CrossAppAccessFields({
  client,
  onChange,
  status,
}: {
  client: ClientSettingsInput;
  onChange: (next: ClientSettingsInput) => void;
  status: ClientSettingsView | undefined;
}) {
  const kept = (flag: boolean | undefined) => (flag ? 'stored; leave empty to keep' : undefined);
  return (
    <>
      <TextInput
        label="Authorization server issuer (the client secret is sent only there)"
        value={client.issuer ?? ''}
        onChange={(e) => onChange({ ...client, issuer: e.currentTarget.value })}
        placeholder="https://…"
      />
      <TextInput
        label="Identity provider issuer"
        value={client.idpIssuer ?? ''}
        onChange={(e) => onChange({ ...client, idpIssuer: e.currentTarget.value })}
        placeholder="https://…"
      />
      <TextInput
        label="Identity provider token endpoint (optional; discovered from the issuer when empty)"
        value={client.idpTokenEndpoint ?? ''}
        onChange={(e) => onChange({ ...client, idpTokenEndpoint: e.currentTarget.value })}
        placeholder="https://…"
      />
      <TextInput
        label="Identity provider client id"
        value={client.idpClientId ?? ''}
        onChange={(e) => onChange({ ...client, idpClientId: e.currentTarget.value })}
      />
      <PasswordInput
        label="Identity provider client secret (optional)"
        value={client.idpClientSecret ?? ''}
        onChange={(e) => onChange({ ...client, idpClientSecret: e.currentTarget.value })}
        placeholder={kept(status?.hasIdpSecret)}
        autoComplete="off"
      />
      <PasswordInput
        label="ID token from your identity provider"
        value={client.idToken ?? ''}
        onChange={(e) => onChange({ ...client, idToken: e.currentTarget.value.trim() })}
        placeholder={kept(status?.hasIdToken)}
        autoComplete="off"
        spellCheck={false}
      />
    </>
  );
}
