// The OAuth client this server is signed in with: the grant, the client id and secret every grant shares, and the
// grant's own fields. Secrets are write-only: after saving they leave the form.
import { Button, Group, NativeSelect, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { AuthStatus, ClientSettingsInput } from '../../../../shared/domains/auth';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';
import type { AuthAction } from './auth-action';
import { AuthorizationCodeFields } from './AuthorizationCodeFields';
import { ClientCredentialsFields } from './ClientCredentialsFields';
import { CrossAppAccessFields } from './CrossAppAccessFields';
import type { GrantFieldsProps } from './grant-fields';

/** Each grant's own fields; the browser grants share theirs. */
function GrantFields(props: GrantFieldsProps) {
  switch (props.client.grant) {
    case 'client_credentials':
      return <ClientCredentialsFields {...props} />;
    case 'cross_app_access':
      return <CrossAppAccessFields {...props} />;
    default:
      return <AuthorizationCodeFields {...props} />;
  }
}

/** One line saying which client is stored. */
function configuredText(client: AuthStatus['client']): string {
  if (!client) return 'None: dynamic registration (or a metadata document) is used.';
  return `Configured: ${client.grant}${client.clientId ? `, client id ${cleanText(client.clientId)}` : ''}${
    client.hasSecret ? ', secret stored' : ''
  }${client.hasPrivateKey ? ', private key stored' : ''}${client.idpIssuer ? `, identity provider ${cleanText(client.idpIssuer)}` : ''}${
    client.hasIdToken ? ', ID token stored' : ''
  }`;
}

/** Save or remove the server's OAuth client. */
export function ClientSettingsForm({ serverId, status, busy, act }: { serverId: string; status: AuthStatus } & AuthAction) {
  const setClient = useStore((s) => s.setClient);
  const [client, setClientForm] = useState<ClientSettingsInput>({ grant: 'authorization_code' });
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        {configuredText(status.client)}
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
              { value: 'device_code', label: 'Device code (sign in on another device)' },
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
          <GrantFields client={client} onChange={setClientForm} status={status.client} />
          <Group gap="xs">
            <Button type="submit" variant="filled" disabled={busy}>
              Save client
            </Button>
            <Button color="red" variant="light" disabled={busy || !status.client} onClick={() => void act(() => setClient(serverId, null))}>
              Remove client
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
