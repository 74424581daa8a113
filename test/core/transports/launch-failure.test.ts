// Which ended processes could not have been refusing the probe (their launch failed), and which may have been.
import { describe, expect, it } from 'vitest';
import { launchFailureReason } from '../../../electron/core/transports/launch-failure.js';

const facts = (stderrTail: string[], extra: { before?: string; exitedBeforeInput?: boolean } = {}) => ({
  stderrTail,
  stderrBeforeInput: extra.before ?? '',
  exitedBeforeInput: extra.exitedBeforeInput ?? false,
});

describe('launchFailureReason', () => {
  it("npm's 404 names the package problem", () => {
    const tail = ['npm error code E404', 'npm error 404 Not Found - GET https://registry.npmjs.org/@x%2fnope - Not found'];
    expect(launchFailureReason(facts(tail))).toMatch(/^npm could not find the package \(404\)/);
  });

  it('missing Node and Python modules', () => {
    expect(launchFailureReason(facts(["Error: Cannot find module '/srv/x/index.js'"]))).toMatch(/^a module it needs is missing/);
    expect(launchFailureReason(facts(["ModuleNotFoundError: No module named 'mcp'"]))).toMatch(/^a Python module it needs is missing/);
  });

  it("a Node crash through the module loader's own frames, but not one after an await in a top-level loop", () => {
    expect(launchFailureReason(facts(['Error: bad config', '    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)']))).toBe(
      'it crashed while loading, before reading anything',
    );
    expect(
      launchFailureReason(
        facts([
          'Error: unknown method',
          '    at handle (file:///srv/server.js:10:9)',
          '    at async ModuleJob.run (node:internal/modules/esm/module_job:325:25)',
        ]),
      ),
    ).toBeUndefined();
  });

  it('a stack trace counts when it came before our first message', () => {
    const trace = 'Traceback (most recent call last):\n  File "server.py", line 1\n';
    expect(launchFailureReason(facts(['Traceback (most recent call last):'], { before: trace }))).toBe(
      'it failed with a stack trace before reading anything',
    );
    expect(launchFailureReason(facts(['Traceback (most recent call last):']))).toBeUndefined();
  });

  it('an exit before our first message reached the process', () => {
    expect(launchFailureReason(facts([], { exitedBeforeInput: true }))).toBe("it ended before Switchboard's first message reached it");
  });

  it('a server that read the probe and said why it exits may have been refusing it', () => {
    expect(launchFailureReason(facts(['unknown method server/discover before initialize; exiting']))).toBeUndefined();
    expect(launchFailureReason(facts(['fatal: boom']))).toBeUndefined();
  });
});
