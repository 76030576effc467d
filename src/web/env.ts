import { z } from 'zod';

/** Settings come from environment variables: these read their text forms. */
export const envBool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
export const envInt = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/** Validates the environment against a schema; a bad value stops start-up with every offending variable named. */
export function loadEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}
