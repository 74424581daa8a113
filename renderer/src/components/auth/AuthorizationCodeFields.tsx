// The browser grants (authorization code, device code): the client may be described by a metadata document instead
// of being registered.
import { TextInput } from '@mantine/core';
import type { GrantFieldsProps } from './grant-fields';

/** Fields of the authorization code and device code grants. */
export function AuthorizationCodeFields({ client, onChange }: GrantFieldsProps) {
  return (
    <TextInput
      label="Client metadata document URL"
      value={client.metadataUrl ?? ''}
      onChange={(e) => onChange({ ...client, metadataUrl: e.currentTarget.value })}
      placeholder="https://…"
    />
  );
}
