// The elicitation dialog: one request at a time (a badge counts the queue), naming the requesting server. The
// first request of a server asks whether it may ask questions at all (remembered; "Don't allow" declines now and
// later, changeable in the server's Client features). Form mode builds fields from the requested schema with
// defaults pre-filled, validates before sending and shows each error next to its field (focusing the first);
// URL mode shows the full address with its host highlighted and warnings, and opens it only on consent.
import { Alert, Badge, Button, Checkbox, Group, Mark, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useId, useMemo, useState } from 'react';
import type { ElicitationRequestView } from '../../../../shared/domains/resources';
import {
  initialValues,
  parseElicitationSchema,
  validateElicitation,
  type ElicitField,
  type ElicitValue,
} from '../../../../shared/domains/resources-elicitation';
import { useStore } from '../../store';
import { selectCurrentElicitation, selectElicitationCount } from '../../store/resources-slice';
import { AppDialog } from '../../ui/AppDialog';
import { useAction } from '../../ui/use-action';

function FormField(props: {
  field: ElicitField;
  id: string;
  value: ElicitValue | undefined;
  error: string | undefined;
  onChange: (v: ElicitValue) => void;
}) {
  const f = props.field;
  const common = {
    id: props.id,
    label: f.label,
    required: f.required,
    error: props.error,
    ...(f.description ? { description: f.description } : {}),
  };
  if (f.kind === 'boolean') {
    return <Checkbox {...common} checked={props.value === true} onChange={(e) => props.onChange(e.currentTarget.checked)} />;
  }
  if (f.kind === 'multiEnum') {
    const chosen = Array.isArray(props.value) ? props.value : [];
    // The id goes to the focusable stack inside, not the group's wrapper.
    const { id: _focusId, ...group } = common;
    return (
      <Checkbox.Group {...group} value={chosen} onChange={(v) => props.onChange(v)}>
        <Stack gap={6} mt={6} id={props.id} tabIndex={-1}>
          {f.options.map((o) => (
            <Checkbox key={o.value} value={o.value} label={o.label} />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  if (f.kind === 'enum') {
    return (
      <Select
        {...common}
        data={f.options.map((o) => ({ value: o.value, label: o.label }))}
        value={typeof props.value === 'string' && props.value !== '' ? props.value : null}
        onChange={(v) => props.onChange(v ?? '')}
        clearable={!f.required}
      />
    );
  }
  const type =
    f.kind === 'number' ? 'number' : f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
  return (
    <TextInput
      {...common}
      type={type}
      {...(f.kind === 'number'
        ? {
            step: f.integer ? 1 : 'any',
            ...(f.minimum !== undefined ? { min: f.minimum } : {}),
            ...(f.maximum !== undefined ? { max: f.maximum } : {}),
          }
        : {})}
      {...(f.kind === 'string' && f.format === 'date-time' ? { placeholder: '2026-01-31T09:30:00Z' } : {})}
      value={props.value === undefined ? '' : String(props.value)}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}

/** The URL with its host part marked. */
function UrlHighlight(props: { url: string; host: string }) {
  const at = props.host === '' ? -1 : props.url.indexOf(props.host);
  if (at < 0) return <span>{props.url}</span>;
  return (
    <span>
      {props.url.slice(0, at)}
      <Mark fw={700}>{props.host}</Mark>
      {props.url.slice(at + props.host.length)}
    </span>
  );
}

/** The host as it travels (ASCII, punycode for internationalized names), or '' when the URL does not parse. */
function wireHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * The address to open, host marked; an internationalized host (shown decoded by the core) is marked in the URL as it
 * is sent and named again below as it reads, since look-alike letters are the point of the warning.
 */
function UrlToOpen(props: { url: string; host: string }) {
  const wire = wireHost(props.url);
  const decoded = props.host !== '' && wire !== '' && props.host !== wire;
  return (
    <Stack gap={4}>
      <Paper withBorder p="xs" className="sb-mono" fz="sm" data-testid="elicitation-url" style={{ overflowWrap: 'anywhere' }}>
        <UrlHighlight url={props.url} host={decoded ? wire : props.host} />
      </Paper>
      {props.host !== '' && (
        <Text fz="sm">
          Host:{' '}
          <Mark data-testid="url-host" fw={700}>
            {props.host}
          </Mark>
          {decoded && <> (sent as {wire})</>}
        </Text>
      )}
    </Stack>
  );
}

/** The first question from a server: may it ask at all? */
function ConsentAsk(props: { request: ElicitationRequestView; count: number }) {
  const r = props.request;
  const setConsent = useStore((s) => s.setConsent);
  const respond = useStore((s) => s.respondElicitation);
  const { busy, error: failure, run } = useAction();
  const choose = (consent: 'allow' | 'deny') => run(() => setConsent(r.serverId, consent), 'Your choice could not be saved');
  return (
    <AppDialog
      opened
      size="md"
      onClose={() => void respond(r.requestId, 'cancel').catch(() => undefined)}
      title="Allow this server to ask you questions?"
      describedBy="consent-text"
      actions={
        <>
          <Button variant="default" disabled={busy} onClick={() => void choose('deny')}>
            Don’t allow
          </Button>
          <Button variant="filled" disabled={busy} onClick={() => void choose('allow')} data-autofocus>
            Allow
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text id="consent-text">
          <strong>{r.serverName}</strong> wants to ask you something. If you allow it, its questions open in a dialog like this one, and you
          answer, decline or cancel each of them. If you don’t, this question and later ones are declined without showing them.
        </Text>
        <Text fz="sm" className="sb-quiet">
          Switchboard remembers your choice for this server. Change it any time in the server’s Client features.
        </Text>
        {props.count > 1 && <Text fz="sm">{props.count} questions are waiting.</Text>}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}

function Dialog(props: { request: ElicitationRequestView; count: number }) {
  const r = props.request;
  const respond = useStore((s) => s.respondElicitation);
  const form = useMemo(() => parseElicitationSchema(r.requestedSchema), [r.requestedSchema]);
  const [values, setValues] = useState<Record<string, ElicitValue>>(() => initialValues(form));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, error: failure, setError: setFailure, run } = useAction();
  const prefix = useId();
  const fieldId = (name: string) => `${prefix}-${name}`;

  const send = async (action: 'accept' | 'decline' | 'cancel') => {
    setFailure(null);
    let content: Record<string, unknown> | undefined;
    if (action === 'accept' && r.mode === 'form') {
      const checked = validateElicitation(form, values);
      if (!checked.ok) {
        setErrors(checked.errors);
        const first = form.fields.find((f) => checked.errors[f.name] !== undefined);
        if (first) requestAnimationFrame(() => document.getElementById(fieldId(first.name))?.focus());
        return;
      }
      setErrors({});
      content = checked.content;
    }
    await run(() => respond(r.requestId, action, content), 'The answer could not be sent');
  };

  const minutes = Math.max(1, Math.ceil((r.expiresAt - Date.now()) / 60_000));
  return (
    <AppDialog
      opened
      onClose={() => void send('cancel')}
      title={`${r.serverName} asks for input`}
      describedBy={`${prefix}-message`}
      actions={
        <>
          <Button variant="subtle" disabled={busy} onClick={() => void send('cancel')}>
            Cancel
          </Button>
          <Button variant="default" disabled={busy} onClick={() => void send('decline')}>
            Decline
          </Button>
          <Button variant="filled" disabled={busy} loading={busy} onClick={() => void send('accept')}>
            {r.mode === 'url' ? 'Open in browser' : 'Accept'}
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fz="sm" className="sb-quiet">
            From server <strong>{r.serverName}</strong> · expires in about {minutes} min
          </Text>
          {props.count > 1 && (
            <Badge variant="light" aria-label={`${props.count} requests waiting`}>
              {props.count} waiting
            </Badge>
          )}
        </Group>
        <Paper
          withBorder
          p="sm"
          id={`${prefix}-message`}
          data-testid="elicitation-message"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {r.message}
        </Paper>
        {r.mode === 'url' && r.url && (
          <Stack gap="xs">
            <Text fz="sm">The server asks you to open this address in your browser. Nothing has been loaded.</Text>
            <UrlToOpen url={r.url} host={r.urlHost ?? ''} />
            {(r.urlWarnings ?? []).map((w) => (
              <Alert key={w} color="orange" variant="light" role="alert">
                {w}
              </Alert>
            ))}
          </Stack>
        )}
        {r.mode === 'form' && (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void send('accept');
            }}
          >
            <Stack gap="sm">
              {form.fields.map((f) => (
                <FormField
                  key={f.name}
                  id={fieldId(f.name)}
                  field={f}
                  value={values[f.name]}
                  error={errors[f.name]}
                  onChange={(v) => {
                    setValues({ ...values, [f.name]: v });
                    if (errors[f.name]) setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => k !== f.name)));
                  }}
                />
              ))}
              {form.unsupported.length > 0 && (
                <Text fz="sm" className="sb-quiet">
                  Not shown (unsupported field types): {form.unsupported.join(', ')}
                </Text>
              )}
              <button type="submit" hidden aria-hidden tabIndex={-1} />
            </Stack>
          </form>
        )}
        <Text fz="xs" className="sb-quiet">
          {r.mode === 'url' ? 'Open in browser opens exactly this address.' : 'Accept sends your answers.'} Decline tells the server you
          will not answer. Cancel closes this without deciding; the server may ask again.
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}

/** Mount point for the elicitation dialog queue. */
export function ElicitationHost() {
  const current = useStore(selectCurrentElicitation);
  const count = useStore(selectElicitationCount);
  const consent = useStore((s) => (current ? s.features[current.serverId]?.elicitationConsent : undefined));
  if (!current) return null;
  const ask = current.consent === 'ask' && consent !== 'allow';
  if (ask) return <ConsentAsk key={`ask-${current.requestId}`} request={current} count={count} />;
  return <Dialog key={current.requestId} request={current} count={count} />;
}
