// The rate-limit line of a webhook subscription: late, not failing, with the server's expected end when it gave one.
import { describe, expect, it } from 'vitest';
import { throttleLabel } from '../../../../renderer/src/components/events/feed-logic';

describe('throttleLabel', () => {
  it('says deliveries are late, and for how long when the server said', () => {
    expect(throttleLabel(undefined, 1000)).toBe('the server is delaying deliveries (rate limit), so events arrive late');
    expect(throttleLabel(1000 + 120_000, 1000)).toBe(
      'the server is delaying deliveries (rate limit), so events arrive late, for about 2 min more',
    );
    // An expected end already past says nothing about how long.
    expect(throttleLabel(500, 1000)).toBe('the server is delaying deliveries (rate limit), so events arrive late');
  });
});
