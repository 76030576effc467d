import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UnauthenticatedError } from '../../web/errors.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { burnPasswordCheck, verifyPassword } from '../crypto.js';
import type { Db } from '../db/database.js';
import { defineRoute } from '../../web/route.js';
import { createLoginSession, deleteLoginSession, findLoginSession } from '../store/login-sessions.js';
import { findUser, userWorkspaces, type UserRow } from '../store/users.js';

export interface AuthRouteOptions {
  db: Db;
  sessionTtlHours: number;
  secureCookie: boolean;
}

const signedIn = z.object({
  data: z.object({
    user: z.object({ id: z.guid(), email: z.string() }),
    workspaces: z.array(z.object({ slug: z.string(), plan: z.string() })),
  }),
});

/** The login session named by a validly signed cookie, if any. */
function sessionToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[SESSION_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  return unsigned?.valid && unsigned.value ? unsigned.value : undefined;
}

async function signedInJson(db: Db, user: UserRow): Promise<z.infer<typeof signedIn>> {
  const workspaces = await userWorkspaces(db, user.id);
  return { data: { user: { id: user.id, email: user.email }, workspaces: workspaces.map((w) => ({ slug: w.slug, plan: w.plan })) } };
}

/** Dashboard sign-in: a signed, HttpOnly, SameSite=Lax cookie naming a server-side session. */
export function authRoutes(app: FastifyInstance, options: AuthRouteOptions): void {
  const cookie = { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secureCookie, signed: true } as const;

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/login',
      tags: ['auth'],
      summary: 'Sign in and receive a session cookie',
      access: { auth: 'none' },
      body: z.object({ email: z.string().min(1), password: z.string().min(1) }),
      response: signedIn,
    },
    async ({ body, reply }) => {
      const user = await findUser(options.db, body.email);
      if (!user) await burnPasswordCheck(body.password);
      if (!user || !(await verifyPassword(body.password, user.passwordHash))) throw new UnauthenticatedError('invalid email or password');
      const token = await createLoginSession(options.db, user.id, options.sessionTtlHours * 3_600_000);
      reply.setCookie(SESSION_COOKIE, token, { ...cookie, maxAge: options.sessionTtlHours * 3600 });
      return signedInJson(options.db, user);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/auth/session',
      tags: ['auth'],
      summary: 'Who is signed in, and the workspaces they may pick with accountSlug',
      description: 'Needs no accountSlug, so the gate does not resolve a workspace: the route reads the session cookie itself.',
      access: { auth: 'none' },
      response: signedIn,
    },
    async ({ request }) => {
      const token = sessionToken(request);
      const user = token ? await findLoginSession(options.db, token) : undefined;
      if (!user) throw new UnauthenticatedError('not signed in, or the session expired: sign in again');
      return signedInJson(options.db, user);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/logout',
      tags: ['auth'],
      summary: 'End the session (idempotent)',
      access: { auth: 'none' },
      response: z.object({ success: z.literal(true) }),
    },
    async ({ request, reply }) => {
      const token = sessionToken(request);
      if (token) await deleteLoginSession(options.db, token);
      reply.clearCookie(SESSION_COOKIE, cookie);
      return { success: true };
    },
  );
}
