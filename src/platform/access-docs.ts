import type { AccessDocs, AccessDocumentation } from '../web/openapi.js';
import type { Access } from './access.js';
import { SESSION_COOKIE } from './auth/authenticate.js';
import { namesGranting } from './scopes.js';

const SECURITY: Record<Access['auth'], Array<Record<string, string[]>>> = {
  key: [{ apiKey: [] }],
  'key-or-cookie': [{ apiKey: [] }, { session: [] }],
  cookie: [{ session: [] }],
  'optional-key': [{}, { apiKey: [] }],
  none: [],
};

function notes(access: Access): string {
  const lines: string[] = [];
  if (access.scope)
    lines.push(
      `Scope: \`${access.scope}\` (granted by ${namesGranting(access.scope)
        .map((n) => `\`${n}\``)
        .join(', ')}).`,
    );
  if (access.auth === 'optional-key') lines.push('Anonymous calls are allowed; a key that is sent must be valid.');
  if (access.paidPlan) lines.push('API-key callers need a paid plan (402 on free).');
  if (access.meter)
    lines.push(
      access.meter === 'credits'
        ? 'Costs 1 credit (402 when none are left).'
        : `Counts against the monthly \`${access.meter}\` allowance (402 past it).`,
    );
  return lines.join(' ');
}

function describe(access: Access): AccessDocs {
  const responses: Record<number, string> = {};
  if (access.auth !== 'none') responses[401] = 'Missing, malformed, invalid or revoked API key (or session)';
  if (access.paidPlan || access.meter) responses[402] = 'No paid plan, out of credits or past the monthly allowance';
  if (access.scope) responses[403] = 'The key lacks the required scope';
  if (access.auth === 'key-or-cookie' || access.auth === 'cookie')
    responses[404] = 'Not found, or the signed-in user is not a member of accountSlug';
  return {
    security: SECURITY[access.auth],
    notes: notes(access),
    responses,
    extensions: access.scope ? { 'x-required-scope': access.scope } : {},
  };
}

/** How the platform's access rules read in the OpenAPI document. */
export const accessDocumentation: AccessDocumentation = {
  describe,
  securitySchemes: {
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
  },
};
