/* global process, queueMicrotask */
// Test-only: gives a Node child the `process.parentPort` an Electron utility process has (messages arrive as
// `{ data }` events, replies go out with postMessage), carried over Node's IPC channel. It lets the core's entry take
// the path it takes in the desktop app, with a real process, where no Electron binary can run. Like Node's IPC,
// messages that arrive before anyone listens are queued, not lost.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
const queued = [];
port.postMessage = (message) => {
  if (process.connected) process.send(message);
};
port.on('newListener', (event) => {
  if (event !== 'message' || queued.length === 0) return;
  // After the listener is attached (newListener fires before).
  queueMicrotask(() => {
    for (const message of queued.splice(0)) port.emit('message', { data: message });
  });
});
process.on('message', (message) => {
  if (port.listenerCount('message') === 0) queued.push(message);
  else port.emit('message', { data: message });
});
process.parentPort = port;
