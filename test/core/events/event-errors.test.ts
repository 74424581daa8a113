// Classification of events failures: both generations of the draft's codes, JSON-RPC codes, SDK and session errors.
import { ProtocolError, SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { classifyEventError, classifyWireError, EVENT_ERROR_CODES } from '../../../electron/core/events/event-errors.js';

describe('classifyWireError', () => {
  it.each(Object.entries(EVENT_ERROR_CODES).flatMap(([kind, codes]) => codes.map((code) => ({ kind, code }))))(
    '$code is $kind',
    ({ kind, code }) => {
      expect(classifyWireError(code, 'Msg', { reason: 'why' })).toMatchObject({
        kind,
        code,
        reason: expect.stringContaining('reason: why'),
      });
    },
  );

  it('marks a removed event type (-32011 kind event) and an in-place schema change (-32014 schema_changed), both generations', () => {
    expect(classifyWireError(-32011, 'NotFound', { kind: 'event' })).toMatchObject({ kind: 'not_found', schemaChange: 'removed' });
    expect(classifyWireError(-32023, 'NotFound', { kind: 'event' })).toMatchObject({ schemaChange: 'removed' });
    expect(classifyWireError(-32014, 'Unsupported', { feature: 'payloadSchema', reason: 'schema_changed' })).toMatchObject({
      kind: 'unsupported',
      terminal: true,
      schemaChange: 'changed',
    });
    expect(classifyWireError(-32026, undefined, { reason: 'schema_changed' })).toMatchObject({ schemaChange: 'changed' });
    // Anything else keeps its plain meaning: an unknown subscription, an unsupported mode, a forbidden one.
    expect(classifyWireError(-32011, undefined, { kind: 'subscription' }).schemaChange).toBeUndefined();
    expect(classifyWireError(-32014, undefined, { feature: 'deliveryMode', value: 'push' }).schemaChange).toBeUndefined();
    expect(classifyWireError(-32012, undefined, { reason: 'schema_changed' }).schemaChange).toBeUndefined();
    expect(classifyWireError(-32011, undefined, undefined).schemaChange).toBeUndefined();
  });

  it('ends for not found, forbidden, unsupported and invalid arguments; retries the rest', () => {
    expect(classifyWireError(-32011, undefined, undefined).terminal).toBe(true);
    expect(classifyWireError(-32024, undefined, undefined).terminal).toBe(true);
    expect(classifyWireError(-32026, undefined, undefined).terminal).toBe(true);
    expect(classifyWireError(-32602, undefined, undefined)).toMatchObject({ kind: 'invalid_arguments', terminal: true });
    expect(classifyWireError(-32601, undefined, undefined)).toMatchObject({ kind: 'unsupported', terminal: true });
    expect(classifyWireError(-32013, undefined, { limit: 'subscriptions' })).toMatchObject({ kind: 'resource_exhausted', terminal: false });
    expect(classifyWireError(-32027, undefined, { reason: 'timeout' })).toMatchObject({ kind: 'callback_endpoint', terminal: false });
    expect(classifyWireError(-32603, 'boom', undefined)).toMatchObject({
      kind: 'other',
      terminal: false,
      reason: 'The server reported an error (-32603: boom)',
    });
  });

  it('keeps server text short and inert', () => {
    const f = classifyWireError(-32012, 'x\u001b[31m\u202E'.repeat(200), { reason: '<b>\u0007bold</b>' });
    expect(f.reason).not.toMatch(/[\u0000-\u001F\u202A-\u202E]/);
    expect(f.reason.length).toBeLessThan(600);
  });
});

describe('classifyEventError', () => {
  it('classifies SDK, session and authorization errors', () => {
    expect(classifyEventError(new ProtocolError(-32023, 'NotFound'))).toMatchObject({ kind: 'not_found', terminal: true });
    expect(classifyEventError(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'))).toMatchObject({
      kind: 'session',
      terminal: false,
    });
    expect(classifyEventError(new Error('Not connected'))).toMatchObject({ kind: 'session' });
    expect(classifyEventError(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toMatchObject({
      kind: 'timeout',
      terminal: false,
    });
    expect(classifyEventError(new UnauthorizedError())).toMatchObject({ kind: 'authorization', terminal: true });
    expect(classifyEventError(new AppError('auth_required', 'sign in'))).toMatchObject({ kind: 'authorization', terminal: true });
    expect(classifyEventError(new AppError('connection_closed', 'closed'))).toMatchObject({ kind: 'session' });
    expect(classifyEventError('weird')).toMatchObject({ kind: 'other', terminal: false });
  });
});
