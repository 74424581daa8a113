// What a person does in Switchboard, through the UI only, in the roles and names docs/selectors.md lists as stable:
// add a server in the Add dialog, approve its launch, connect it, find a tool in the catalog, call it and read the
// result as shown, answer a server's question, sign in by pasting the redirect URL. The bridge is used only to read
// facts a person would read on screen elsewhere (a pending question's fields) and to apply definition fields the
// Add dialog has no control for.
import { expect, type Locator, type Page } from '@playwright/test';
import type { ServerConfigInput } from '../shared/config.js';
import type { ServerConfigView, ServerDetail } from '../shared/contract.js';
import type { CallStatus } from '../shared/domains/calls.js';
import { parseElicitationSchema, type ElicitField } from '../shared/domains/resources-elicitation.js';
import type { SwitchboardBridge } from './bridge-client.js';

/** A tool result as the result view shows it. */
export interface ShownResult {
  /** How the call ended (from the status word shown). */
  status: CallStatus;
  /** The status as shown ("Succeeded", "Failed", "Cancelled by you", "Timed out"). */
  statusText: string;
  /** The result's text as shown ('' when it has none). */
  text: string;
  /** The structured content as shown, parsed (absent when there is none or it was shortened for display). */
  structured?: unknown;
  /** The structured content's text as shown. */
  structuredText?: string;
  /** The error shown for a failed call. */
  error?: string;
  /** Whether the view says the tool reported an error. */
  isError: boolean;
}

/** Options of `addServer`. */
export interface AddServerOptions {
  /** A static bearer token for an HTTP or SSE server, typed into the dialog's bearer field. */
  bearerToken?: string;
}

/** Options of `answerElicitation`. */
export interface AnswerOptions {
  /** What to press: Accept (default), Decline or Cancel. */
  action?: 'accept' | 'decline' | 'cancel';
  /** When the server asks for the first time: allow it to ask (default true) or not. */
  allowServer?: boolean;
  /** How long to wait for the question (default 30 s). */
  timeoutMs?: number;
}

/** The person-like helpers. */
export interface PersonHelpers {
  /** Opens a deep link of the running app, e.g. `#/servers/echo/tools`. */
  goto(hash: string): Promise<void>;
  /** Adds a server through the Add server dialog (a stdio server then still needs `approve`). */
  addServer(config: ServerConfigInput, opts?: AddServerOptions): Promise<ServerDetail>;
  /** Approves a stdio server's exact launch on its page. */
  approve(id: string): Promise<void>;
  /** Connects a server from its page (when it is not connected yet) and waits until it is. */
  connect(id: string, opts?: { timeoutMs?: number }): Promise<void>;
  /** Finds a tool in the catalog by its local name (`mcp__<server>__<tool>`) and opens it; returns its call area. */
  openTool(name: string): Promise<Locator>;
  /** Opens a tool, enters `args` as JSON, presses Call and returns the result as shown. */
  callTool(name: string, args?: Record<string, unknown>, opts?: { timeoutMs?: number }): Promise<ShownResult>;
  /** Answers the question a server asks (keys are the requested property names). */
  answerElicitation(values?: Record<string, unknown>, opts?: AnswerOptions): Promise<void>;
  /**
   * Signs a server in from its Sign-in tab the way one does over SSH: reads the authorization URL shown, hands it to
   * `fetchRedirect` (which plays the browser and returns the URL it was redirected to) and pastes that back.
   */
  signInByPastingRedirect(id: string, fetchRedirect: (authorizationUrl: string) => Promise<string>): Promise<void>;
}

const STATUS_WORDS: Record<string, CallStatus> = {
  Succeeded: 'ok',
  Failed: 'error',
  Cancelled: 'cancelled',
  'Cancelled by you': 'cancelled',
  'Timed out': 'timeout',
};

/** Definition fields the Add dialog sets; the others are applied through the contract after it. */
const DIALOG_POLICY = ['lifecycle', 'startup', 'concurrency', 'enabled', 'required', 'elicitation', 'resources', 'tasks'] as const;

/** A definition as shown turned back into one that keeps every stored secret. */
function viewToInput(view: ServerConfigView): ServerConfigInput {
  const t = view.transport;
  const transport =
    t.type === 'stdio'
      ? { ...t, env: Object.fromEntries(Object.entries(t.env).map(([k, v]) => [k, typeof v === 'string' ? v : { secret: true as const }])) }
      : {
          ...t,
          headers: Object.fromEntries(
            Object.entries(t.headers).map(([k, v]) => [k, typeof v === 'string' ? v : { secret: true as const }]),
          ),
        };
  return { ...view, transport } as ServerConfigInput;
}

/** Builds the helpers over one page and bridge. */
export function createPerson(page: () => Page, bridge: SwitchboardBridge): PersonHelpers {
  const goto = async (hash: string): Promise<void> => {
    await page().evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, hash);
  };

  const openServer = async (id: string): Promise<void> => {
    await goto(`#/servers/${encodeURIComponent(id)}`);
    await expect(page().getByRole('status', { name: 'Connection status' })).toBeVisible();
  };

  const addServer = async (config: ServerConfigInput, opts: AddServerOptions = {}): Promise<ServerDetail> => {
    const p = page();
    await goto('#/servers');
    const first = p.getByRole('button', { name: 'Add your first server' });
    const add = p.getByRole('button', { name: 'Add server', exact: true }).first();
    await expect(first.or(add).first()).toBeVisible();
    await ((await first.isVisible()) ? first : add).click();
    const dialog = p.getByRole('dialog', { name: 'Add server' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(config.name);
    await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill(config.id);
    const t = config.transport;
    await dialog.getByLabel('Transport').selectOption(t.type);
    if (t.type === 'stdio') {
      await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(t.command);
      await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill((t.args ?? []).join('\n'));
      if (t.cwd) await dialog.getByRole('textbox', { name: 'Working directory', exact: true }).fill(t.cwd);
      let i = 0;
      for (const [name, value] of Object.entries(t.env ?? {})) {
        i++;
        await dialog.getByRole('button', { name: 'Add variable' }).click();
        await dialog.getByRole('textbox', { name: `Environment name ${i}`, exact: true }).fill(name);
        if (typeof value !== 'string')
          await dialog
            .getByRole('checkbox', { name: 'Secret' })
            .nth(i - 1)
            .check();
        await dialog.getByLabel(`Environment value ${i}`, { exact: true }).fill(typeof value === 'string' ? value : (value.value ?? ''));
      }
      if (t.inheritEnv !== undefined) {
        await dialog.getByRole('checkbox', { name: 'Inherit the whole environment of Switchboard' }).setChecked(t.inheritEnv);
      }
    } else {
      await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill(t.url);
      if (opts.bearerToken !== undefined) await dialog.getByLabel('Bearer token (optional)').fill(opts.bearerToken);
      let i = 0;
      for (const [name, value] of Object.entries(t.headers ?? {})) {
        i++;
        await dialog.getByRole('button', { name: 'Add header' }).click();
        await dialog.getByRole('textbox', { name: `Header name ${i}`, exact: true }).fill(name);
        // Credential-like names are secret already (the box is checked and locked); others are ticked when asked for.
        const secretBox = dialog.getByRole('checkbox', { name: `Header ${i} is secret`, exact: true });
        if (typeof value !== 'string' && !(await secretBox.isChecked())) await secretBox.check();
        await dialog.getByLabel(`Header value ${i}`, { exact: true }).fill(typeof value === 'string' ? value : (value.value ?? ''));
      }
      if (t.allowInsecureHttp !== undefined) {
        await dialog.getByRole('checkbox', { name: 'Allow plain http to a non-loopback host' }).setChecked(t.allowInsecureHttp);
      }
    }
    if (DIALOG_POLICY.some((k) => config[k] !== undefined)) {
      await dialog.getByRole('button', { name: 'Connection policy' }).click();
      for (const k of ['lifecycle', 'startup', 'concurrency'] as const) {
        const v = config[k];
        if (v !== undefined) await dialog.getByLabel(k[0]!.toUpperCase() + k.slice(1), { exact: true }).selectOption(v);
      }
      const boxes = {
        enabled: 'Enabled',
        required: 'Required at start-up',
        elicitation: 'Allow elicitation requests',
        resources: 'Resources',
        tasks: 'Tasks extension',
      } as const;
      for (const [k, label] of Object.entries(boxes) as [keyof typeof boxes, string][]) {
        const v = config[k];
        if (v !== undefined) await dialog.getByRole('checkbox', { name: label, exact: true }).setChecked(v);
      }
    }
    await dialog.getByRole('button', { name: 'Add server', exact: true }).click();
    const refusal = dialog.getByRole('alert').or(dialog.locator('.mantine-InputWrapper-error'));
    await expect
      .poll(async () => !(await dialog.isVisible()) || (await refusal.count()) > 0, { message: 'the Add server dialog closes' })
      .toBe(true);
    if (await dialog.isVisible()) {
      const why = (await refusal.allInnerTexts()).join('; ');
      throw new Error(`The Add server dialog refused ${config.id}: ${why}`);
    }
    // Fields the dialog has no control for (timeouts, limits, tool filters, sampling, roots, an argument with a line
    // break) are applied the way another window of the app would: through the contract, keeping stored secrets.
    let detail = await bridge['servers.get']({ id: config.id });
    const wanted = {
      ...viewToInput(detail.config),
      ...config,
      transport: { ...viewToInput(detail.config).transport, ...config.transport },
    };
    if (differs(config, detail.config)) detail = await bridge['servers.update']({ id: config.id, config: wanted as ServerConfigInput });
    return detail;
  };

  const approve = async (id: string): Promise<void> => {
    await openServer(id);
    const region = page().getByRole('region', { name: 'Approve this command before it runs' });
    await expect(region, `server ${id} shows a launch to approve`).toBeVisible();
    await region.getByRole('button', { name: 'Approve and allow to run' }).click();
    await expect(region).toBeHidden();
  };

  const connect = async (id: string, opts: { timeoutMs?: number } = {}): Promise<void> => {
    await openServer(id);
    const p = page();
    const status = p.getByRole('status', { name: 'Connection status' });
    const timeout = opts.timeoutMs ?? 60_000;
    const settled = /^(Connected|Connecting…|Disconnected|Failed|Needs sign-in|Needs approval|Disabled)$/;
    await expect(status).toHaveText(settled);
    const now = (await status.innerText()).trim();
    if (now === 'Needs approval') throw new Error(`Server ${id} needs its launch approved first (approve(${JSON.stringify(id)}))`);
    if (now === 'Disabled') throw new Error(`Server ${id} is disabled`);
    if (now === 'Disconnected' || now === 'Failed') {
      await p.getByRole('group', { name: 'Server actions' }).getByRole('button', { name: 'Connect', exact: true }).click();
      await expect(status).not.toHaveText(now === 'Failed' ? 'Failed' : 'Disconnected');
    }
    await expect(status).toHaveText(/^(Connected|Failed|Needs sign-in)$/, { timeout });
    const end = (await status.innerText()).trim();
    if (end !== 'Connected') {
      const doctor = p.getByTestId('doctor');
      const why = (await doctor.count()) > 0 ? (await doctor.innerText()).replace(/\s+/g, ' ').trim() : '';
      throw new Error(`Server ${id} did not connect: ${end}${why ? ` — ${why}` : ''}`);
    }
  };

  const openTool = async (name: string): Promise<Locator> => {
    const p = page();
    // The catalog's deep link to one tool (its search matches titles and descriptions, not local names); the view
    // fills in once the server has listed its tools.
    await goto(`#/catalog/${encodeURIComponent(name)}`);
    await expect(p.getByTestId('tool-detail').getByTestId('tool-local-name'), `the catalog shows ${name}`).toHaveText(name, {
      timeout: 30_000,
    });
    return p.getByRole('region', { name: 'Call tool' });
  };

  const callTool = async (name: string, args: Record<string, unknown> = {}, opts: { timeoutMs?: number } = {}): Promise<ShownResult> => {
    const p = page();
    const area = await openTool(name);
    await area.getByRole('tablist', { name: 'Argument editor' }).getByRole('tab', { name: 'JSON' }).click();
    await area.getByLabel('Arguments (JSON)').fill(JSON.stringify(args, null, 2));
    // The previous result (if any) is replaced when the call starts: wait for that before reading.
    const resultArea = p.getByTestId('call-result-area');
    const previous = (await resultArea.count()) > 0 ? await resultArea.getByRole('region', { name: 'Call result' }).elementHandle() : null;
    await area.getByRole('button', { name: 'Call', exact: true }).click();
    if (previous) await p.waitForFunction((el) => !el.isConnected, previous);
    const result = resultArea.getByRole('region', { name: 'Call result' });
    const problem = resultArea.getByRole('alert').or(area.locator('.mantine-InputWrapper-error, .error-detail'));
    await expect(result.or(problem).first(), `a result of ${name}`).toBeVisible({ timeout: opts.timeoutMs ?? 120_000 });
    if (!(await result.isVisible()))
      throw new Error(`Calling ${name} failed before a result: ${(await problem.allInnerTexts()).join('; ')}`);
    const statusText = (await result.getByTestId('call-status').innerText()).trim();
    const text = result.getByTestId('result-text');
    const structured = result.getByTestId('result-structured');
    const alert = result.getByRole('alert');
    const shown: ShownResult = {
      status: STATUS_WORDS[statusText] ?? 'error',
      statusText,
      text: (await text.count()) > 0 ? ((await text.textContent()) ?? '') : '',
      isError: (await result.getByText('The tool reported an error').count()) > 0,
    };
    if ((await structured.count()) > 0) {
      shown.structuredText = (await structured.textContent()) ?? '';
      const shortened = (await result.getByText('Structured content (shortened)').count()) > 0;
      if (!shortened) shown.structured = JSON.parse(shown.structuredText) as unknown;
    }
    if ((await alert.count()) > 0) shown.error = (await alert.first().innerText()).trim();
    return shown;
  };

  const answerElicitation = async (values: Record<string, unknown> = {}, opts: AnswerOptions = {}): Promise<void> => {
    const p = page();
    const timeout = opts.timeoutMs ?? 30_000;
    const consent = p.getByRole('dialog', { name: 'Allow this server to ask you questions?' });
    const ask = p.getByRole('dialog', { name: / asks for input$/ });
    await expect(consent.or(ask).first(), 'a question from a server').toBeVisible({ timeout });
    if (await consent.isVisible()) {
      await consent.getByRole('button', { name: opts.allowServer === false ? 'Don’t allow' : 'Allow', exact: true }).click();
      if (opts.allowServer === false) return;
      await expect(ask).toBeVisible({ timeout });
    }
    const action = opts.action ?? 'accept';
    if (action === 'accept' && Object.keys(values).length > 0) {
      const pending = await bridge['elicitation.pending']({});
      const message = ((await ask.getByTestId('elicitation-message').textContent()) ?? '').trim();
      const request = pending.find((r) => r.mode === 'form' && r.message.trim() === message) ?? pending.find((r) => r.mode === 'form');
      if (!request) throw new Error('The question on screen is not a form');
      const fields = new Map(parseElicitationSchema(request.requestedSchema).fields.map((f) => [f.name, f]));
      for (const [name, value] of Object.entries(values)) {
        const field = fields.get(name);
        if (!field) throw new Error(`The question has no field "${name}" (it has ${[...fields.keys()].join(', ') || 'none'})`);
        await fillField(ask, field, value);
      }
    }
    const urlMode = (await ask.getByRole('button', { name: 'Open in browser' }).count()) > 0;
    const button = action === 'accept' ? (urlMode ? 'Open in browser' : 'Accept') : action === 'decline' ? 'Decline' : 'Cancel';
    const requestId = await ask.getByTestId('elicitation-message').getAttribute('id');
    await ask.getByRole('button', { name: button, exact: true }).click();
    // Done when this question's dialog is gone (the next question may reuse the frame) or the form shows errors.
    const errors = ask.locator('.mantine-InputWrapper-error').or(ask.getByRole('alert'));
    const same = p.locator(`[id="${requestId ?? ''}"]`);
    await expect
      .poll(async () => (await same.count()) === 0 || (await errors.count()) > 0, { timeout, message: 'the question is answered' })
      .toBe(true);
    if ((await same.count()) > 0) throw new Error(`The answer was refused: ${(await errors.allInnerTexts()).join('; ')}`);
  };

  const signInByPastingRedirect = async (id: string, fetchRedirect: (authorizationUrl: string) => Promise<string>): Promise<void> => {
    const p = page();
    await goto(`#/servers/${encodeURIComponent(id)}/sign-in`);
    const tab = p.getByRole('tab', { name: /^Sign-in/ });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    const panel = p.getByRole('region', { name: 'Sign-in' });
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    const urlBox = panel.getByLabel('Authorization URL');
    await expect(urlBox).toHaveValue(/^https?:\/\//, { timeout: 30_000 });
    const redirect = await fetchRedirect(await urlBox.inputValue());
    await panel.getByLabel('Redirect URL').fill(redirect);
    await panel.getByRole('button', { name: 'Complete sign-in' }).click();
    const state = panel.getByTestId('auth-state');
    await expect(state.or(panel.getByRole('alert')).first()).toBeVisible();
    await expect(state).toContainText('Signed in', { timeout: 30_000 });
  };

  return { goto, addServer, approve, connect, openTool, callTool, answerElicitation, signInByPastingRedirect };
}

/** Whether the requested definition has a field the shown one lacks or holds differently (secret values aside). */
function differs(wanted: ServerConfigInput, shown: ServerConfigView): boolean {
  for (const [k, v] of Object.entries(wanted)) {
    if (k === 'transport') continue;
    if (JSON.stringify(v) !== JSON.stringify((shown as Record<string, unknown>)[k])) return true;
  }
  const t = wanted.transport as Record<string, unknown>;
  const s = shown.transport as Record<string, unknown>;
  for (const [k, v] of Object.entries(t)) {
    if (k === 'env') {
      for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
        const have = (s['env'] as Record<string, unknown>)[name];
        if (typeof value === 'string' ? have !== value : typeof have === 'string' || have === undefined) return true;
      }
    } else if (JSON.stringify(v) !== JSON.stringify(s[k])) return true;
  }
  return false;
}

async function fillField(dialog: Locator, field: ElicitField, value: unknown): Promise<void> {
  const label = { name: field.label, exact: true };
  switch (field.kind) {
    case 'boolean':
      await dialog.getByRole('checkbox', label).setChecked(value === true);
      return;
    case 'enum': {
      const option = field.options.find((o) => o.value === value);
      if (!option) throw new Error(`"${String(value)}" is not one of ${field.label}'s choices`);
      await dialog.getByRole('textbox', label).click();
      await dialog.page().getByRole('option', { name: option.label, exact: true }).click();
      return;
    }
    case 'multiEnum': {
      const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
      const group = dialog.getByRole('group', label);
      for (const o of field.options) await group.getByRole('checkbox', { name: o.label, exact: true }).setChecked(chosen.has(o.value));
      return;
    }
    default:
      await dialog.getByLabel(field.label, { exact: true }).fill(String(value));
  }
}
