import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SERVICE_ARGS, SERVICE_ENV } from './support/build-service.js';

// The bench, the soak and the SIGTERM test start the service with SERVICE_ARGS; they measure and
// test what operators run only while `npm start` and the image run the very same command.
it('npm start and the service image run the service as the tests and the bench do', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const prefix = Object.entries(SERVICE_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  expect(pkg.scripts.start).toBe(`npm run -s build && ${prefix} node ${SERVICE_ARGS.join(' ')}`);
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  expect(dockerfile).toContain(`CMD ${JSON.stringify(['node', ...SERVICE_ARGS])}`);
  for (const [name, value] of Object.entries(SERVICE_ENV)) expect(dockerfile).toContain(`ENV ${name}=${value}`);
});
