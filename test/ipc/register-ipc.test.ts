// The IPC layer tells the shell when the page is listening: only for a trusted frame and a successful app.listening.
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../../electron/core/dispatcher.js';
import { registerIpc, type InvokeEventLike, type IpcMainLike } from '../../electron/ipc/register-ipc.js';

describe('registerIpc hooks', () => {
  it('signals listening after a trusted app.listening and never for others', async () => {
    const handles = new Map<string, (event: InvokeEventLike, args: unknown) => Promise<unknown>>();
    const ipcMain: IpcMainLike = { handle: (channel, listener) => void handles.set(channel, listener) };
    const dispatch: Dispatch = async (method) => ({ ok: true, value: method });
    const top = {};
    let listening = 0;
    const frames: unknown[] = [];
    registerIpc(ipcMain, dispatch, (f) => f === top, {
      onListening: (frame) => {
        listening += 1;
        frames.push(frame);
      },
    });
    await handles.get('app.listening')!({ senderFrame: {} }, {});
    await handles.get('app.info')!({ senderFrame: top }, {});
    expect(listening).toBe(0);
    await handles.get('app.listening')!({ senderFrame: top }, {});
    expect(listening).toBe(1);
    // The shell is told which frame listens (an app window's page must not release the main window's events).
    expect(frames).toEqual([top]);
  });
});
