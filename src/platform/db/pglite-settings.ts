// The embedded database serves a few small tables; PostgreSQL's default buffers would keep about
// 120 MB more of the service's memory resident for nothing (measured: 280 MB RSS on open, 160 MB with these).
export const PGLITE_SETTINGS = ['shared_buffers = 8MB', 'work_mem = 1MB', 'maintenance_work_mem = 4MB', 'temp_buffers = 1MB', 'wal_buffers = 256kB'];
