// The absent-resultType stage: on a 2026-07-28 connection a result without resultType becomes "complete" (said
// once in the log); results that carry one, legacy connections, requests, notifications and errors pass unchanged.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { resultTypeStage } from '../../../electron/core/ingress/result-type-stage.js';

const later = (): void => undefined;

describe('resultTypeStage', () => {
  it('fills in "complete" on a modern connection and says so once', () => {
    const lines: string[] = [];
    const stage = resultTypeStage(
      () => true,
      (_level, text) => lines.push(text),
    );
    const bare: JSONRPCMessage = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'ok' }] } };
    expect(stage(bare, later)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' },
    });
    expect(stage({ jsonrpc: '2.0', id: 4, result: {} }, later)).toEqual({ jsonrpc: '2.0', id: 4, result: { resultType: 'complete' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('resultType');
    // The original message is not modified in place (taps may hold it).
    expect('resultType' in (bare as { result: object }).result).toBe(false);
  });

  it('leaves a stated resultType, legacy connections and other messages alone', () => {
    const lines: string[] = [];
    let modern = false;
    const stage = resultTypeStage(
      () => modern,
      (_level, text) => lines.push(text),
    );
    const bare: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
    expect(stage(bare, later)).toBe(bare);
    modern = true;
    const stated: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', requestState: 's' } };
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 5, method: 'ping' };
    const notification: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const error: JSONRPCMessage = { jsonrpc: '2.0', id: 6, error: { code: -32601, message: 'no' } };
    for (const m of [stated, request, notification, error]) expect(stage(m, later)).toBe(m);
    expect(lines).toEqual([]);
  });
});
