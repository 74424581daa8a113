// The Client features introduction says what a newly added server really starts with.
import { describe, expect, it } from 'vitest';
import { clientFeaturesIntro } from '../../../../renderer/src/components/protocol/client-features-intro';
import { emptyModel } from '../../../../renderer/src/components/servers/server-form-model';

describe('clientFeaturesIntro', () => {
  it('with questions on by default (as the add dialog has them) it does not claim everything is off', () => {
    expect(emptyModel().elicitation).toBe(true);
    const text = clientFeaturesIntro();
    expect(text).not.toMatch(/Everything here is off/);
    expect(text).toContain('“Let the server ask questions” is on for a server you add here');
    expect(text).toContain('sampling, shared folders and tasks are off until you turn them on');
  });

  it('were questions off by default, everything would be off', () => {
    expect(clientFeaturesIntro(false)).toContain('Everything here is off until you turn it on.');
  });
});
