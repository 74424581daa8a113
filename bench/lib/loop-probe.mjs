// Preloaded (--import) into the headless launcher by benchmarks only: measures the event-loop delay of the shell
// process itself (the thread serving the bridge) and answers over the launcher's IPC channel. The core is started
// with its own flags, so the probe is in the shell alone.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
process.on('message', (m) => {
  if (m === 'loop:reset') h.reset();
  if (m === 'loop:read') process.send?.({ t: 'loop', p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 });
});
// The channel must not keep a launcher alive that was asked to stop.
process.channel?.unref();
