// The client credentials grant (no browser): how the client authenticates, the authorization server that alone may
// receive the secret, and a private key for private_key_jwt.
import { NativeSelect, Textarea, TextInput } from '@mantine/core';
import type { ClientSettingsInput } from '../../../../shared/domains/auth';
import type { GrantFieldsProps } from './grant-fields';

/** Fields of the client credentials grant. */
export function ClientCredentialsFields({ client, onChange }: GrantFieldsProps) {
  return (
    <>
      <NativeSelect
        label="Client authentication"
        value={client.authMethod ?? 'client_secret_basic'}
        onChange={(e) => onChange({ ...client, authMethod: e.currentTarget.value as NonNullable<ClientSettingsInput['authMethod']> })}
        data={['client_secret_basic', 'client_secret_post', 'private_key_jwt']}
      />
      <TextInput
        label="Authorization server issuer (the secret is sent only there)"
        value={client.issuer ?? ''}
        onChange={(e) => onChange({ ...client, issuer: e.currentTarget.value })}
        placeholder="https://…"
      />
      {client.authMethod === 'private_key_jwt' ? (
        <Textarea
          label="Private key (PEM)"
          rows={4}
          resize="vertical"
          value={client.privateKeyPem ?? ''}
          onChange={(e) => onChange({ ...client, privateKeyPem: e.currentTarget.value })}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      ) : null}
    </>
  );
}
