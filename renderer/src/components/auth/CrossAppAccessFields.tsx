// Cross-App Access (SEP-990): the ID token from the person's enterprise sign-in is exchanged at the identity provider
// for a grant this server's authorization server accepts. Secrets are write-only: left empty, the stored one stays.
import { PasswordInput, TextInput } from '@mantine/core';
import { keptPlaceholder, type GrantFieldsProps } from './grant-fields';

/** Fields of enterprise sign-in (Cross-App Access). */
export function CrossAppAccessFields({ client, onChange, status }: GrantFieldsProps) {
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
        placeholder={keptPlaceholder(status?.hasIdpSecret)}
        autoComplete="off"
      />
      <PasswordInput
        label="ID token from your identity provider"
        value={client.idToken ?? ''}
        onChange={(e) => onChange({ ...client, idToken: e.currentTarget.value.trim() })}
        placeholder={keptPlaceholder(status?.hasIdToken)}
        autoComplete="off"
        spellCheck={false}
      />
    </>
  );
}
