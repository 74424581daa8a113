// Sandboxed preload: exposes exactly the contract through contextBridge.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildPreloadApi } from './ipc/preload-api.js';

const api = buildPreloadApi({
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  on: (channel, listener) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => ipcRenderer.removeListener(channel, wrapped);
  },
});

contextBridge.exposeInMainWorld('switchboard', api);
