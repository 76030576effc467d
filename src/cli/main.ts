import { parseArgs } from 'node:util';
import { AdminError } from '../platform/admin/commands.js';
import { loadPlatformConfig } from '../platform/config.js';
import { CLI_COMMANDS, commandHelp, generalHelp } from './commands.js';
import { execute } from './transport.js';

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = CLI_COMMANDS[name];
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
      process.stdout.write(`${generalHelp()}\n`);
      return 0;
    }
    throw new UsageError(`unknown command: ${name || argv[0]}`);
  }
  const options = Object.fromEntries(Object.keys(command.options).map((option) => [option, { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv.slice(2), options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${commandHelp(name, command)}`);
  }
  const positionals = parsed.positionals;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    process.stdout.write(`${commandHelp(name, command)}\n`);
    return 0;
  }
  const missing = [
    ...command.positionals.slice(positionals.length),
    ...Object.entries(command.options)
      .filter(([option, spec]) => spec.required && values[option] === undefined)
      .map(([option]) => `--${option}`),
  ];
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}\n\n${commandHelp(name, command)}`);
  if (positionals.length > command.positionals.length)
    throw new UsageError(`unexpected argument ${positionals[command.positionals.length]}\n\n${commandHelp(name, command)}`);
  const stringValues = Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const output = await execute(loadPlatformConfig(), command.build(positionals, stringValues));
  process.stdout.write(`${output}\n`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Operator mistakes print their message alone; anything else keeps its stack for a bug report.
  const expected = error instanceof UsageError || error instanceof AdminError;
  process.stderr.write(`${expected || !(error instanceof Error) ? String((error as Error).message ?? error) : error.stack}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
