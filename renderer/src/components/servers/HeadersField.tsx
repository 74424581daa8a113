// The header rows of a remote server. Credential-like names are always secret; an Authorization header is not sent
// as typed: a Bearer one becomes the server's bearer token (the button moves it into that field now).
import { ActionIcon, Alert, Box, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { isSensitiveHeaderName } from '../../../../shared/config';
import { authorizationHeader, type FormSectionProps } from './form-section';

/** Props of the Headers fieldset. */
export interface HeadersFieldProps extends FormSectionProps {
  /** Whether an existing server is edited (a bearer token is then set in the Sign-in tab). */
  editing: boolean;
  /** Sets the new server's bearer token field. */
  setBearer: (token: string) => void;
}

/** The Headers fieldset and the plain-http switch. */
export function HeadersField({ model: m, patch, errors, editing, setBearer }: HeadersFieldProps) {
  const auth = authorizationHeader(m.headers);
  const moveAuthToBearer = (): void => {
    if (auth.bearer === undefined) return;
    setBearer(auth.bearer);
    patch({ headers: m.headers.filter((_, i) => i !== auth.index) });
  };
  return (
    <Box component="fieldset" style={{ border: 0, margin: 0, padding: 0 }}>
      <Text component="legend" fw={500} size="sm" mb={6}>
        Headers
      </Text>
      <Stack gap="xs">
        {m.headers.map((h, i) => {
          // Credential-like names (X-Api-Key, *-Token, …) are always kept secret by the core.
          const forced = isSensitiveHeaderName(h.key.trim());
          const secret = h.secret || forced;
          const setValue = (value: string) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, value } : x)) });
          return (
            <Group key={i} gap="xs" wrap="nowrap">
              <TextInput
                aria-label={`Header name ${i + 1}`}
                placeholder="X-Header"
                value={h.key}
                onChange={(e) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, key: e.currentTarget.value } : x)) })}
                style={{ flex: '0 1 220px' }}
              />
              {secret ? (
                <PasswordInput
                  aria-label={`Header value ${i + 1}`}
                  placeholder={h.isSet ? '(stored — leave empty to keep)' : 'value'}
                  value={h.value}
                  onChange={(e) => setValue(e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
              ) : (
                <TextInput
                  aria-label={`Header value ${i + 1}`}
                  value={h.value}
                  onChange={(e) => setValue(e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
              )}
              <Checkbox
                label="Secret"
                aria-label={`Header ${i + 1} is secret`}
                title={forced ? 'Headers with credential-like names are always kept in the credential store' : undefined}
                checked={secret}
                disabled={forced}
                onChange={(e) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, secret: e.currentTarget.checked } : x)) })}
              />
              <ActionIcon
                size="lg"
                color="red"
                aria-label={`Remove header ${i + 1}`}
                onClick={() => patch({ headers: m.headers.filter((_, j) => j !== i) })}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        {auth.index >= 0 && (
          <Alert color="blue" variant="light" p="sm">
            <Stack gap={6}>
              <Text size="sm">
                Switchboard sets the Authorization header itself.{' '}
                {auth.bearer !== undefined
                  ? editing
                    ? 'Set this token in the Sign-in tab instead.'
                    : 'This Bearer token will be kept in the credential store as the server’s bearer token.'
                  : 'Only a Bearer token can be used; set other credentials in the Sign-in tab.'}
              </Text>
              {auth.bearer !== undefined && !editing && (
                <Group>
                  <Button size="xs" variant="light" onClick={moveAuthToBearer}>
                    Move it to the bearer token field
                  </Button>
                </Group>
              )}
            </Stack>
          </Alert>
        )}
        {errors['headers'] && (
          <Text size="sm" c="red" role="alert">
            {errors['headers']}
          </Text>
        )}
        <Group gap="md">
          <Button
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => patch({ headers: [...m.headers, { key: '', value: '', secret: false, isSet: false }] })}
          >
            Add header
          </Button>
          <Checkbox
            label="Allow plain http to a non-loopback host"
            checked={m.allowInsecureHttp}
            onChange={(e) => patch({ allowInsecureHttp: e.currentTarget.checked })}
          />
        </Group>
      </Stack>
    </Box>
  );
}
