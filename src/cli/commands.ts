import type { AdminCommand } from '../platform/admin/commands.js';
import { PLANS } from '../platform/plans.js';

type Values = Record<string, string | undefined>;

export interface CliCommand {
  usage: string;
  summary: string;
  positionals: string[];
  options: Record<string, { description: string; required?: boolean }>;
  build(positionals: string[], values: Values): AdminCommand;
}

const plans = PLANS.join(', ');

/** The admin CLI's commands, keyed by their two words. */
export const CLI_COMMANDS: Record<string, CliCommand> = {
  'workspace create': {
    usage: 'workspace create SLUG --plan PLAN',
    summary: `create a workspace (plans: ${plans})`,
    positionals: ['SLUG'],
    options: { plan: { description: `one of ${plans}`, required: true } },
    build: ([slug], v) => ({ command: 'workspace.create', slug, plan: v.plan as AdminCommandPlan }),
  },
  'user create': {
    usage: 'user create EMAIL --password PW',
    summary: 'create a dashboard user',
    positionals: ['EMAIL'],
    options: { password: { description: 'at least 8 characters', required: true } },
    build: ([email], v) => ({ command: 'user.create', email, password: v.password ?? '' }),
  },
  'member add': {
    usage: 'member add --workspace SLUG --email EMAIL',
    summary: 'make a user a member of a workspace',
    positionals: [],
    options: { workspace: { description: 'workspace slug', required: true }, email: { description: 'user email', required: true } },
    build: (_, v) => ({ command: 'member.add', workspace: v.workspace ?? '', email: v.email ?? '' }),
  },
  'key create': {
    usage: 'key create --workspace SLUG --scopes LIST [--name N]',
    summary: 'create an API key; prints it once, alone on the last line',
    positionals: [],
    options: {
      workspace: { description: 'workspace slug', required: true },
      scopes: {
        description: 'comma-separated scope names in any form (sessions:read, role:read, candidates.read...) or all',
        required: true,
      },
      name: { description: 'a label for the key (default cli)' },
    },
    build: (_, v) => ({ command: 'key.create', workspace: v.workspace ?? '', scopes: v.scopes ?? '', ...(v.name ? { name: v.name } : {}) }),
  },
  'key list': {
    usage: 'key list --workspace SLUG',
    summary: "list a workspace's keys (id, name, suffix, state, scopes; never the secret)",
    positionals: [],
    options: { workspace: { description: 'workspace slug', required: true } },
    build: (_, v) => ({ command: 'key.list', workspace: v.workspace ?? '' }),
  },
  'key revoke': {
    usage: 'key revoke ID',
    summary: 'revoke a key; its requests under way end with 401 on every node, and so does its next',
    positionals: ['ID'],
    options: {},
    build: ([id]) => ({ command: 'key.revoke', id }),
  },
  'plan set': {
    usage: 'plan set --workspace SLUG --plan PLAN [--credits N]',
    summary: "change a workspace's plan, and optionally set its credits",
    positionals: [],
    options: {
      workspace: { description: 'workspace slug', required: true },
      plan: { description: `one of ${plans}`, required: true },
      credits: { description: 'credit balance to set' },
    },
    build: (_, v) => ({
      command: 'plan.set',
      workspace: v.workspace ?? '',
      plan: v.plan as AdminCommandPlan,
      ...(v.credits !== undefined ? { credits: v.credits } : {}),
    }),
  },
  'outbox list': {
    usage: 'outbox list [--kind K] [--status S] [--workspace SLUG]',
    summary: 'list the newest outbox messages (emails, webhook deliveries, résumé fetches)',
    positionals: [],
    options: {
      kind: { description: 'email, webhook or resume' },
      status: { description: 'pending, delivered or failed' },
      workspace: { description: 'workspace slug' },
    },
    build: (_, v) => ({
      command: 'outbox.list',
      ...(v.kind !== undefined ? { kind: v.kind as OutboxListCommand['kind'] } : {}),
      ...(v.status !== undefined ? { status: v.status as OutboxListCommand['status'] } : {}),
      ...(v.workspace !== undefined ? { workspace: v.workspace } : {}),
    }),
  },
  'outbox show': {
    usage: 'outbox show ID',
    summary: 'show one outbox message and its attempts; for an email its recipient, subject and text',
    positionals: ['ID'],
    options: {},
    build: ([id]) => ({ command: 'outbox.show', id }),
  },
};

// The CLI passes text through; the command schema checks it is a real plan, kind or status.
type AdminCommandPlan = Extract<AdminCommand, { command: 'plan.set' }>['plan'];
type OutboxListCommand = Extract<AdminCommand, { command: 'outbox.list' }>;

export function commandHelp(name: string, command: CliCommand): string {
  const options = Object.entries(command.options).map(
    ([option, spec]) => `  --${option.padEnd(10)} ${spec.description}${spec.required ? ' (required)' : ''}`,
  );
  return [
    `usage: npm run -s cli -- ${command.usage}`,
    '',
    `${name}: ${command.summary}`,
    '',
    'options:',
    ...options,
    `  --${'help'.padEnd(10)} show this help`,
  ].join('\n');
}

export function generalHelp(): string {
  return [
    'usage: npm run -s cli -- COMMAND [options]',
    '',
    'commands:',
    ...Object.values(CLI_COMMANDS).map((c) => `  ${c.usage.padEnd(52)} ${c.summary}`),
    '',
    'Each command takes --help. With the service running, commands go through its loopback admin',
    'endpoint; otherwise they open DATA_DIR (or DATABASE_URL) directly.',
  ].join('\n');
}
