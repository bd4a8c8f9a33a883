import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { asyncFileDestination } from '../../../src/adapters/logging/log-destinations';
import { PinoLogger } from '../../../src/adapters/logging/pino-logger';

describe('asyncFileDestination', () => {
  let dir: string;
  let file: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orders-log-'));
    file = join(dir, 'out.log');
    fd = openSync(file, 'a');
  });

  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const written = (): string[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '');

  it('leaves the writing to the event loop: when the log calls return, at most the first line is out', () => {
    const logger = new PinoLogger('info', asyncFileDestination(fd));
    for (let i = 0; i < 2_000; i++) logger.info('line', { i });
    expect(written().length).to.be.at.most(1);
    return logger.flush();
  });

  it('resolves flush once every line written so far is in the file, in order', async () => {
    const logger = new PinoLogger('info', asyncFileDestination(fd));
    for (let i = 0; i < 2_000; i++) logger.info('line', { i });
    await logger.flush();
    const lines = written().map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).to.deep.equal(Array.from({ length: 2_000 }, (_, i) => i));
    logger.info('last');
    await logger.flush();
    expect(written()).to.have.length(2_001);
  });

  it('resolves flush at once when nothing was written', async () => {
    const logger = new PinoLogger('info', asyncFileDestination(fd));
    await logger.flush();
    expect(written()).to.deep.equal([]);
  });
});
