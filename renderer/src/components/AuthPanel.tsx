import { useEffect, useState } from 'react';
import type { AuthStep, ClientSettingsInput, ClientSettingsView } from '../../../shared/domains/auth';
import { useStore } from '../store';
import { DeviceSignIn } from './auth/DeviceSignIn';

const STEPS: { step: AuthStep; label: string }[] = [
  { step: 'discovery', label: 'Discovery' },
  { step: 'registration', label: 'Registration' },
  { step: 'browser', label: 'Browser' },
  { step: 'token', label: 'Token' },
];
/** The same steps for a device sign-in: the code is entered on another device instead of this browser. */
const DEVICE_STEPS = STEPS.map((s) => (s.step === 'browser' ? { step: 'device' as AuthStep, label: 'Code entered' } : s));

/** Text markers so the step states read without colour. */
const MARK = { done: '✓', current: '→', failed: '✗', pending: '·' } as const;

const STATE_TEXT = {
  'signed-out': 'Signed out',
  'signed-in': 'Signed in',
  'needs-auth': 'Sign-in needed',
  'in-progress': 'Signing in…',
} as const;

/** Sign-in of one HTTP/SSE server: status, flow steps, paste-the-redirect, bearer token, client settings, sign out. */
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
    return <section aria-label="Sign-in">{error ? <p role="alert">{error}</p> : <p className="hint">Loading…</p>}</section>;
  }
  const flow = status.flow;
  const steps = flow && (flow.step === 'device' || flow.failed?.step === 'device') ? DEVICE_STEPS : STEPS;
  const current = flow ? steps.findIndex((s) => s.step === flow.step) : -1;
  const act = async (fn: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Sign-in" className="auth-panel">
      <p data-testid="auth-state">
        <strong>{STATE_TEXT[status.state]}</strong>
        {status.issuer ? ` with ${status.issuer}` : ''}
        {status.expiresAt ? ` · token expires ${new Date(status.expiresAt).toLocaleString()}` : ''}
      </p>
      {status.scopes?.length ? <p className="hint">Scopes: {status.scopes.join(' ')}</p> : null}
      {status.state === 'needs-auth' && status.reason ? <p role="status">{status.reason}</p> : null}
      {status.requiredScope ? <p className="hint">The server asks for: {status.requiredScope}</p> : null}
      {error ? <p role="alert">{error}</p> : null}

      <div className="row">
        <button type="button" disabled={busy || status.bearerSet === true} onClick={() => void act(() => beginSignIn(serverId))}>
          Sign in
        </button>
        <button type="button" disabled={busy || status.state === 'signed-out'} onClick={() => void act(() => signOut(serverId))}>
          Sign out
        </button>
      </div>

      <DeviceSignIn serverId={serverId} status={status} />

      {flow ? (
        <ol className="auth-steps" aria-label="Sign-in steps">
          {steps.map((s, i) => {
            const failed = flow.failed?.step === s.step;
            const state = failed
              ? 'failed'
              : i < current || (i === current && !flow.failed && status.state !== 'in-progress')
                ? 'done'
                : i === current
                  ? 'current'
                  : 'pending';
            return (
              <li
                key={s.step}
                data-step={s.step}
                data-state={state}
                style={{
                  fontWeight: state === 'current' ? 600 : undefined,
                  color: state === 'failed' ? '#b3261e' : state === 'pending' ? '#777' : undefined,
                }}
              >
                {MARK[state]} {s.label}
                {failed ? `: ${flow.failed?.message ?? ''}` : ''}
              </li>
            );
          })}
        </ol>
      ) : null}

      {status.state === 'in-progress' && flow?.authorizationUrl ? (
        <div className="auth-url">
          <p>
            {mode === 'headless'
              ? 'Open this address in a browser to sign in:'
              : 'Your browser was opened. If it did not open, use this address:'}
          </p>
          <input
            readOnly
            aria-label="Authorization URL"
            className="mono"
            value={flow.authorizationUrl}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(flow.authorizationUrl ?? '')}>
            Copy
          </button>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void act(async () => {
                if (await completeSignIn(serverId, pasted)) setPasted('');
              });
            }}
          >
            <label>
              Or paste the address the browser ended on (starts with {flow.redirectUri ?? 'http://127.0.0.1'}):
              <input
                aria-label="Redirect URL"
                className="mono"
                value={pasted}
                onChange={(e) => setPasted(e.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
            <button type="submit" disabled={busy || pasted.trim() === ''}>
              Complete sign-in
            </button>
          </form>
        </div>
      ) : null}

      <details>
        <summary>Static bearer token</summary>
        <p className="hint">{status.bearerSet ? 'A token is stored in the credential store.' : 'No token is stored.'}</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              if (await setBearer(serverId, bearer.trim())) setBearerText('');
            });
          }}
        >
          <input
            type="password"
            aria-label="Bearer token"
            value={bearer}
            onChange={(e) => setBearerText(e.target.value)}
            autoComplete="off"
          />
          <button type="submit" disabled={busy || bearer.trim() === ''}>
            Save token
          </button>
          <button type="button" disabled={busy || status.bearerSet !== true} onClick={() => void act(() => setBearer(serverId, null))}>
            Clear token
          </button>
        </form>
      </details>

      <details>
        <summary>Client settings</summary>
        {status.client ? (
          <p className="hint">
            Configured: {status.client.grant}
            {status.client.clientId ? `, client id ${status.client.clientId}` : ''}
            {status.client.hasSecret ? ', secret stored' : ''}
            {status.client.hasPrivateKey ? ', private key stored' : ''}
            {status.client.idpIssuer ? `, identity provider ${status.client.idpIssuer}` : ''}
            {status.client.hasIdToken ? ', ID token stored' : ''}
          </p>
        ) : (
          <p className="hint">None: dynamic registration (or a metadata document) is used.</p>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const clean = Object.fromEntries(
              Object.entries(client).filter(([, v]) => v !== '' && v !== undefined),
            ) as unknown as ClientSettingsInput;
            void act(async () => {
              // Secrets are write-only: once stored they leave the form (and the page).
              if (await setClient(serverId, clean))
                setClientForm(({ clientSecret: _s, privateKeyPem: _k, idpClientSecret: _i, idToken: _t, ...rest }) => rest);
            });
          }}
        >
          <label>
            Grant
            <select
              value={client.grant}
              onChange={(e) => setClientForm({ ...client, grant: e.target.value as ClientSettingsInput['grant'] })}
            >
              <option value="authorization_code">Authorization code (browser)</option>
              <option value="client_credentials">Client credentials (no browser)</option>
              <option value="cross_app_access">Enterprise sign-in (Cross-App Access)</option>
              <option value="device_code">Device code (sign in on another device)</option>
            </select>
          </label>
          <label>
            Client id
            <input value={client.clientId ?? ''} onChange={(e) => setClientForm({ ...client, clientId: e.target.value })} />
          </label>
          <label>
            Client secret
            <input
              type="password"
              value={client.clientSecret ?? ''}
              onChange={(e) => setClientForm({ ...client, clientSecret: e.target.value })}
              autoComplete="off"
            />
          </label>
          {client.grant === 'client_credentials' ? (
            <>
              <label>
                Client authentication
                <select
                  value={client.authMethod ?? 'client_secret_basic'}
                  onChange={(e) => setClientForm({ ...client, authMethod: e.target.value as ClientSettingsInput['authMethod'] })}
                >
                  <option value="client_secret_basic">client_secret_basic</option>
                  <option value="client_secret_post">client_secret_post</option>
                  <option value="private_key_jwt">private_key_jwt</option>
                </select>
              </label>
              <label>
                Authorization server issuer (the secret is sent only there)
                <input
                  value={client.issuer ?? ''}
                  onChange={(e) => setClientForm({ ...client, issuer: e.target.value })}
                  placeholder="https://…"
                />
              </label>
              {client.authMethod === 'private_key_jwt' ? (
                <label>
                  Private key (PEM)
                  <textarea
                    value={client.privateKeyPem ?? ''}
                    onChange={(e) => setClientForm({ ...client, privateKeyPem: e.target.value })}
                  />
                </label>
              ) : null}
            </>
          ) : client.grant === 'cross_app_access' ? (
            <CrossAppAccessFields client={client} onChange={setClientForm} status={status.client} />
          ) : (
            <label>
              Client metadata document URL
              <input
                value={client.metadataUrl ?? ''}
                onChange={(e) => setClientForm({ ...client, metadataUrl: e.target.value })}
                placeholder="https://…"
              />
            </label>
          )}
          <button type="submit" disabled={busy}>
            Save client
          </button>
          <button type="button" disabled={busy || !status.client} onClick={() => void act(() => setClient(serverId, null))}>
            Remove client
          </button>
        </form>
      </details>
    </section>
  );
}

/**
 * Cross-App Access (SEP-990): the ID token from the user's enterprise sign-in is exchanged at the identity provider
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
  const kept = (flag: boolean | undefined) => (flag ? 'stored; leave empty to keep' : '');
  return (
    <>
      <label>
        Authorization server issuer (the client secret is sent only there)
        <input value={client.issuer ?? ''} onChange={(e) => onChange({ ...client, issuer: e.target.value })} placeholder="https://…" />
      </label>
      <label>
        Identity provider issuer
        <input
          value={client.idpIssuer ?? ''}
          onChange={(e) => onChange({ ...client, idpIssuer: e.target.value })}
          placeholder="https://…"
        />
      </label>
      <label>
        Identity provider token endpoint (optional; discovered from the issuer when empty)
        <input
          value={client.idpTokenEndpoint ?? ''}
          onChange={(e) => onChange({ ...client, idpTokenEndpoint: e.target.value })}
          placeholder="https://…"
        />
      </label>
      <label>
        Identity provider client id
        <input value={client.idpClientId ?? ''} onChange={(e) => onChange({ ...client, idpClientId: e.target.value })} />
      </label>
      <label>
        Identity provider client secret (optional)
        <input
          type="password"
          value={client.idpClientSecret ?? ''}
          onChange={(e) => onChange({ ...client, idpClientSecret: e.target.value })}
          placeholder={kept(status?.hasIdpSecret)}
          autoComplete="off"
        />
      </label>
      <label>
        ID token from your identity provider
        <input
          type="password"
          value={client.idToken ?? ''}
          onChange={(e) => onChange({ ...client, idToken: e.target.value.trim() })}
          placeholder={kept(status?.hasIdToken)}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
    </>
  );
}
