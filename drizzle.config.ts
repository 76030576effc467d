import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes the next migration from the schema; the service applies them at start (src/platform/db/migrate.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/platform/db/schema.ts', './src/platform/outbox/table.ts', './src/resources/*/table.ts'],
  out: './src/platform/db/migrations',
});
