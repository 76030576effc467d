import { z } from 'zod';

/** Field rules shared by the resources (limits in docs/resources.md). */
export const uuidField = z.guid('must be a UUID');
export const label = z.string().min(1, 'must not be empty').max(200);
export const longText = z.string().max(5000);
export const url = z.url().max(2048);
export const stringList = z.array(z.string().max(100)).max(100);

const METADATA_BYTES = 16 * 1024;
export const metadataObject = z
  .record(z.string(), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_BYTES, `must be at most ${METADATA_BYTES} bytes as JSON`);

/** Timestamps in answers: ISO 8601, UTC. */
export const timestampField = z.string().meta({ description: 'ISO 8601, UTC' });

export const lifecycleStatus = z.enum(['draft', 'active', 'archived']);
export const activeOrArchived = z.enum(['active', 'archived']);
export const useCase = z.enum(['hiring', 'admissions', 'training', 'custom_api']);
export const difficultyLevel = z.enum(['beginner', 'intermediate', 'advanced', 'expert', 'adaptive']);
export const minutes = z.number().int().min(5).max(480);

type Fields = Record<string, z.ZodType>;

/** The optional fields of a create body. */
export function optionalAll<T extends Fields>(fields: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

/** The same fields in an update body, where `null` clears one. */
export function clearableAll<T extends Fields>(fields: T): { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> } {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.nullable().optional()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
  };
}
