import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks `Authorization: Bearer <token>` against the shared RUNNER_TOKEN. Both sides are hashed
 * first, so the constant-time comparison always sees equal lengths and the token's length leaks nothing.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
    return timingSafeEqual(digest(presented), expected);
  };
}
