import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, startTestService } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const HOME = { home: '/tmp', user: 'sandbox', written: 'ok' };

/** Candidate code (or a library it uses) that asks who and where it is must not fail for a reason of the sandbox's. */
describe('the sandbox user has a name and a writable home', () => {
  it('python: Path.home(), expanduser, getpass and pwd', async () => {
    const code = [
      'import getpass, os, pathlib, pwd',
      'def where():',
      '    home = str(pathlib.Path.home())',
      "    assert os.path.expanduser('~') == home == os.environ['HOME'] == pwd.getpwuid(os.getuid()).pw_dir",
      "    (pathlib.Path(home) / 'note.txt').write_text('ok')",
      "    return {'home': home, 'user': getpass.getuser(), 'written': (pathlib.Path(home) / 'note.txt').read_text()}",
      '',
    ].join('\n');
    const reply = await execute(service, { language: 'python', code, testCases: [{ args: {}, expected: HOME }] });
    expect(reply.body.results?.[0], JSON.stringify(reply.body)).toMatchObject({ passed: true, error: null });
  });

  it('javascript: os.homedir(), os.userInfo() and a file in the home directory', async () => {
    const code = [
      "const fs = require('fs'), os = require('os'), path = require('path');",
      'function where() {',
      '  const home = os.homedir();',
      "  if (process.env.HOME !== home || os.userInfo().homedir !== home) throw new Error('HOME disagrees with the passwd entry');",
      "  fs.writeFileSync(path.join(home, 'note.txt'), 'ok');",
      "  return { home, user: os.userInfo().username, written: fs.readFileSync(path.join(home, 'note.txt'), 'utf8') };",
      '}',
      '',
    ].join('\n');
    const reply = await execute(service, { language: 'javascript', code, testCases: [{ args: {}, expected: HOME }] });
    expect(reply.body.results?.[0], JSON.stringify(reply.body)).toMatchObject({ passed: true, error: null });
  });
});
