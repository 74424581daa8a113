// The sandbox's `allow` attribute is written out locally (the launcher must not load the extension package to start):
// it must stay the package's mapping for every set of granted permissions.
import { buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describe, expect, it } from 'vitest';
import type { AppPermission } from '../../../shared/domains/apps.js';
import { allowAttribute } from '../../../electron/core/apps/sandbox-page.js';

const ALL: AppPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

describe('allowAttribute', () => {
  it('matches the extension package for every subset of permissions, in any order', () => {
    for (let mask = 0; mask < 1 << ALL.length; mask++) {
      const granted = ALL.filter((_, i) => (mask & (1 << i)) !== 0);
      const expected = buildAllowAttribute(Object.fromEntries(granted.map((p) => [p, {}])));
      expect(allowAttribute(granted)).toBe(expected);
      expect(allowAttribute([...granted].reverse())).toBe(expected);
    }
  });
});
