// Run as a process of its own by open-pglite.ts when the data folder has no database yet: PGlite's initdb
// takes about 600 MB of WebAssembly memory that a process never gives back, so it must not be the service's.
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_SETTINGS, useBaselineWasmCompiler } from './pglite-settings.js';

useBaselineWasmCompiler();
const client = await PGlite.create(process.argv[2], { postgresqlconf: PGLITE_SETTINGS });
await client.close();
