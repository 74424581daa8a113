// The Events view's count line names every stored match, not only the page loaded so far.
import { describe, expect, it } from 'vitest';
import { feedCountText } from '../../../../renderer/src/components/events/feed-logic';

describe('feedCountText', () => {
  it('says how many of the matching entries are loaded when more are stored', () => {
    expect(feedCountText(60, 412)).toBe('60 of 412 entries shown');
    expect(feedCountText(200, 1500)).toBe('200 of 1,500 entries shown');
  });

  it('gives one number when everything is loaded or the total is not known', () => {
    expect(feedCountText(5, 5)).toBe('5 entries shown');
    expect(feedCountText(1, 1)).toBe('1 entry shown');
    expect(feedCountText(7, undefined)).toBe('7 entries shown');
    expect(feedCountText(0, 0)).toBe('No entries');
  });

  it('never shows fewer in all than are on the page (the core may have dropped old ones since)', () => {
    expect(feedCountText(60, 40)).toBe('60 entries shown');
  });
});
