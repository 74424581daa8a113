// The connection doctor's wording: a next step for each failure, PATH shown once and never empty, folded retries.
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/contract';
import type { AppErrorData, ErrorCode } from '../../shared/errors';
import { doctorView, nextStepFor } from '../../renderer/src/lib/doctor-text';
import { foldLogLines } from '../../renderer/src/lib/log-fold';

describe('doctorView', () => {
  it('shows the searched PATH once: in the evidence, cut from the headline', () => {
    const view = doctorView({
      code: 'command_not_found',
      message: 'Command "nope" was not found. Searched PATH: /usr/bin:/bin',
      evidence: { phase: 'spawn', searchedPath: ['/usr/bin', '/bin'] },
    });
    expect(view.headline).toBe('Command "nope" was not found.');
    expect(view.searchedPath).toEqual(['/usr/bin', '/bin']);
    expect(view.nextStep).toMatch(/full path/);
    expect(view.facts).toEqual([{ label: 'When', value: 'Starting the program' }]);
  });

  it('never shows an empty PATH, and keeps the stderr lines out of the headline', () => {
    const view = doctorView({
      code: 'process_exited',
      message: 'The server process exited with code 1 while starting the server. Last stderr: Error: missing API_KEY',
      evidence: { phase: 'handshake', exitCode: 1, searchedPath: [], stderrTail: ['', 'Error: missing API_KEY'] },
    });
    expect(view.searchedPath).toBeUndefined();
    expect(view.headline).toBe('The server process exited with code 1 while starting the server.');
    expect(view.stderr).toEqual(['Error: missing API_KEY']);
    expect(view.nextStep).toMatch(/last lines below/);
  });

  it('a launch refused for lost secrets says to enter them again, by name', () => {
    const step = nextStepFor({ code: 'approval_required', message: 'x', evidence: { missingSecrets: ['WEATHER_API_KEY', 'TOKEN'] } });
    expect(step).toBe('Enter WEATHER_API_KEY, TOKEN again in the server’s settings (Edit), then approve its launch.');
    expect(nextStepFor({ code: 'approval_required', message: 'x' })).toBe('Review the command above and approve it.');
  });

  it('ends every failure with a next step', () => {
    const codes: ErrorCode[] = [
      'spawn_failed',
      'timeout',
      'http_error',
      'connect_failed',
      'auth_required',
      'protocol_mismatch',
      'internal',
    ];
    for (const code of codes) {
      const step = nextStepFor({ code, message: 'x' } satisfies AppErrorData);
      expect(step.length, code).toBeGreaterThan(20);
      expect(step.endsWith('.'), code).toBe(true);
    }
    expect(nextStepFor({ code: 'http_error', message: 'x', evidence: { httpStatus: 404 } })).toMatch(/\/mcp/);
  });
});

describe('foldLogLines', () => {
  const line = (seq: number, text: string, level: LogEntry['level'] = 'warning'): LogEntry => ({
    seq,
    time: seq,
    source: 'lifecycle',
    level,
    text,
  });

  it('folds consecutive lines that differ only in numbers, keeping the newest', () => {
    const folded = foldLogLines([
      line(1, 'Connecting (stdio, lifecycle auto)', 'info'),
      line(2, 'Connect failed. Retrying in 1000 ms.'),
      line(3, 'Connect failed. Retrying in 2000 ms.'),
      line(4, 'Connect failed. Retrying in 4000 ms.'),
      line(5, 'Connected with 2026-07-28 (discover)', 'info'),
      line(6, 'Connect failed. Retrying in 1000 ms.'),
    ]);
    expect(folded.map((f) => [f.entry.seq, f.count])).toEqual([
      [1, 1],
      [4, 3],
      [5, 1],
      [6, 1],
    ]);
  });
});
