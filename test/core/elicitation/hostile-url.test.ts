// URL-mode elicitations from a hostile server (issue 17 item 4): ESC/OSC sequences, bidi controls or user info in the
// URL are declined before any dialog opens, and nothing raw reaches the terminal; an internationalized host is shown
// decoded with a warning, and accepting it opens (in headless mode: prints, escaped) exactly the checked address.
import { describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { PrintingUrlOpener } from '../../../electron/core/elicitation/url-opener.js';
import { addApproved, fixture, stdioServer, until, useSessionHost } from '../sessions/helpers.js';

const printed: string[] = [];
const t = useSessionHost({ urlOpener: new PrintingUrlOpener((line) => printed.push(line)) });

async function setUp(): Promise<string[]> {
  printed.length = 0;
  await addApproved(t.h.host, stdioServer('url', fixture('hostile-url.ts'), { elicitation: true, lifecycle: 'initialize' }));
  return printed;
}

const requested = (): EventMap['elicitation.requested'][] =>
  t.h.events.filter((e) => e.event === 'elicitation.requested').map((e) => e.payload as EventMap['elicitation.requested']);

describe('hostile elicitation URLs', () => {
  it.each([
    ['an OSC hyperlink sequence', 'https://example.com/\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007'],
    ['a title-setting escape', 'https://example.com/\u001b]0;pwned\u0007'],
    ['a bidi override', 'https://example.com/\u202egnp.exe'],
    ['user info', 'https://accounts.example@evil.example/'],
    ['plain http to another host', 'http://evil.example/'],
  ])('%s is declined before any dialog opens, and nothing is printed', async (_what, url) => {
    const printed = await setUp();
    const outcome = await t.h.host.calls.call({ name: 'mcp__url__open', arguments: { url } });
    expect(outcome.presentation.text).toBe('action: decline');
    expect(requested()).toEqual([]);
    expect(printed).toEqual([]);
  });

  it('an internationalized host is shown decoded with a warning; accepting prints only the checked ASCII address', async () => {
    const printed = await setUp();
    const call = t.h.host.calls.call({ name: 'mcp__url__open', arguments: { url: 'https://xn--pple-43d.com/sign-in' } });
    await until(() => requested().length === 1, 15_000, 'elicitation.requested');
    const view = requested()[0]!.request;
    expect(view).toMatchObject({ url: 'https://xn--pple-43d.com/sign-in', urlDisplay: 'https://аpple.com/sign-in', urlHost: 'аpple.com' });
    expect(view.urlWarnings?.join(' ')).toMatch(/internationalized/);
    await t.h.host.interaction.elicitation.respond(view.requestId, 'accept');
    expect((await call).presentation.text).toBe('action: accept');
    expect(printed).toEqual(['opened: https://xn--pple-43d.com/sign-in\n']);
  });
});
