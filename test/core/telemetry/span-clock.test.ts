// Spans of one trace are timed on one clock: a child that ends just before its parent is never stamped after it.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { hrTimeToNanoseconds } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { TracerTelemetry } from '../../../electron/core/telemetry/tracer-telemetry.js';

/** Waits (spinning) until the wall clock's millisecond changes, where per-span millisecond anchors disagree most. */
function nextMillisecond(): void {
  const now = Date.now();
  while (Date.now() === now) {
    // spin
  }
}

describe('span clock', () => {
  it('keeps every child inside its parent, across millisecond boundaries of the wall clock', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = new TracerTelemetry(provider.getTracer('test'), () => provider.shutdown());
    for (let i = 0; i < 50; i++) {
      await telemetry.run('parent', 'server', {}, async () => {
        nextMillisecond();
        await telemetry.run('child', 'internal', {}, () => Promise.resolve());
      });
    }
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(100);
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    let children = 0;
    for (const child of spans.filter((s) => s.name === 'child')) {
      const parent = byId.get(child.parentSpanContext?.spanId ?? '')!;
      expect(parent.name).toBe('parent');
      expect(hrTimeToNanoseconds(child.startTime)).toBeGreaterThanOrEqual(hrTimeToNanoseconds(parent.startTime));
      expect(hrTimeToNanoseconds(child.endTime)).toBeLessThanOrEqual(hrTimeToNanoseconds(parent.endTime));
      children++;
    }
    expect(children).toBe(50);
    await telemetry.shutdown();
  });
});
