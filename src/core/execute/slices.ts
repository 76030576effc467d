import { performance } from 'node:perf_hooks';

/**
 * Cuts a long loop on the event loop into slices: `pause()` yields to other work (I/O, timers,
 * other requests) once the current slice has run `sliceMs`, and returns at once otherwise.
 */
export class Slicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 8) {}

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
