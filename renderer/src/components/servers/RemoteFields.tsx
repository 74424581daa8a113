// The remote section of the add/edit dialog, the same for Streamable HTTP and legacy HTTP+SSE: the address (one
// without a scheme gets https://, or http:// for this computer, suggested), a bearer token for a new server (kept in
// the credential store, never in the settings) and the headers.
import { Box, Button, Group, PasswordInput, Text, TextInput } from '@mantine/core';
import { suggestUrl } from '../../lib/url-suggest';
import type { FormSectionProps } from './form-section';
import { HeadersField } from './HeadersField';

/** Props of the remote section: a new server's bearer token field is the dialog's state. */
export interface RemoteFieldsProps extends FormSectionProps {
  /** Whether an existing server is edited (its token is set in the Sign-in tab instead). */
  editing: boolean;
  /** The bearer token typed for a new server. */
  bearer: string;
  /** Sets the bearer token. */
  setBearer: (token: string) => void;
}

/** URL, bearer token and headers of an HTTP or SSE server. */
export function RemoteFields({ model: m, patch, errors, editing, bearer, setBearer }: RemoteFieldsProps) {
  const urlSuggestion = suggestUrl(m.url);
  return (
    <>
      <Box>
        <TextInput
          label="URL"
          required
          type="url"
          value={m.url}
          error={errors['url']}
          onChange={(e) => patch({ url: e.currentTarget.value })}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          spellCheck={false}
          placeholder="https://example.com/mcp"
        />
        {urlSuggestion && (
          <Group gap="xs" mt={6}>
            <Text size="sm" c="dimmed">
              The address needs a scheme.
            </Text>
            <Button size="xs" variant="light" onClick={() => patch({ url: urlSuggestion })}>
              Use {urlSuggestion}
            </Button>
          </Group>
        )}
      </Box>
      {!editing ? (
        <PasswordInput
          label="Bearer token (optional)"
          description="Sent as Authorization: Bearer …; kept in the credential store, never in the settings file."
          value={bearer}
          error={errors['bearer']}
          onChange={(e) => setBearer(e.currentTarget.value.replace(/^\s*bearer\s+/i, ''))}
          autoComplete="off"
        />
      ) : (
        <Text size="sm" c="dimmed">
          The bearer token and other sign-in settings are in the server’s Sign-in tab.
        </Text>
      )}
      <HeadersField model={m} patch={patch} errors={errors} editing={editing} setBearer={setBearer} />
    </>
  );
}
