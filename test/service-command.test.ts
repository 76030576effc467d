import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SERVICE_ARGS } from './support/build-service.js';

// The bench, the soak and the SIGTERM test start the service with SERVICE_ARGS; they measure and
// test what operators run only while `npm start` and the image run the very same command.
it('npm start and the service image run the service as the tests and the bench do', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.start).toBe(`npm run -s build && node ${SERVICE_ARGS.join(' ')}`);
  expect(readFileSync('Dockerfile', 'utf8')).toContain(`CMD ${JSON.stringify(['node', ...SERVICE_ARGS])}`);
});
