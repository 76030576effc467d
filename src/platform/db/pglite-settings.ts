import v8 from 'node:v8';

// The embedded database serves a few small tables; PostgreSQL's default buffers would keep about
// 120 MB more of the service's memory resident for nothing (measured: 280 MB RSS on open, 160 MB with these).
export const PGLITE_SETTINGS = [
  'shared_buffers = 8MB',
  'work_mem = 1MB',
  'maintenance_work_mem = 4MB',
  'temp_buffers = 1MB',
  'wal_buffers = 256kB',
];

/**
 * Call before PGlite compiles its WebAssembly (PostgreSQL, 9 MB). V8's optimising tier compiles the
 * hot functions again and keeps both versions: about 80 MB more RSS, for no speed this workload can
 * see (measured: 20 000 indexed selects took 4.5 s either way, and opening is faster without it).
 * The flag holds for all WebAssembly this process compiles from then on.
 */
export function useBaselineWasmCompiler(): void {
  v8.setFlagsFromString('--liftoff-only');
}
