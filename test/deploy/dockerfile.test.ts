import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

// The service image cannot be built here (no base image can be pulled): its build is checked as
// text, and its runtime in test/deploy/read-only-node.test.ts.
const lines = readFileSync('Dockerfile', 'utf8')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));
/** The build's stages, each its FROM line and what follows it. */
const stages: string[][] = [];
for (const line of lines) {
  if (line.startsWith('FROM ')) stages.push([line]);
  else stages.at(-1)?.push(line);
}
const ignored = readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));

it('copies only what exists and what the build context keeps', () => {
  const sources = lines
    .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
    .flatMap((line) => line.split(/\s+/).slice(1, -1));
  expect(sources.length).toBeGreaterThan(3);
  for (const source of sources) {
    expect(existsSync(source), `${source} is missing`).toBe(true);
    expect(ignored, `${source} is in .dockerignore`).not.toContain(source.split('/')[0]);
  }
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(stages[0].join('\n')).toContain('RUN npm run -s build');
  expect(scripts.build).toBeDefined();
});

it('runs the service as the unprivileged node user, owning DATA_DIR', () => {
  const final = stages.at(-1)!;
  const users = final.filter((line) => line.startsWith('USER '));
  expect(users).toEqual(['USER node']);
  const userAt = final.indexOf('USER node');
  // Nothing after the switch needs root, and DATA_DIR exists owned by that user before it becomes a volume.
  expect(final.slice(userAt).some((line) => line.startsWith('RUN '))).toBe(false);
  expect(final.slice(0, userAt)).toContain('RUN mkdir /data && chown node:node /data');
  expect(final.join('\n')).toMatch(/ENV .*DATA_DIR=\/data/);
  expect(final.indexOf('VOLUME ["/data"]')).toBeGreaterThan(userAt);
});
