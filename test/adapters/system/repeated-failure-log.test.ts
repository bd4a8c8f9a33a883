import { expect } from 'chai';
import type { UseCases } from '../../../src/application/use-cases';
import { WebhookDoorbells } from '../../../src/adapters/webhooks/doorbell';
import { REPEAT_EVERY_MS, RepeatedFailureLog } from '../../../src/adapters/system/repeated-failure-log';
import { WebhookWorker } from '../../../src/adapters/webhooks/webhook-worker';
import { memoryLogger } from '../../support/memory-log';
import { eventually } from '../../support/webhook-receiver';

const parsed = (lines: readonly string[]): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('RepeatedFailureLog', () => {
  let now: number;
  let lines: string[];
  let log: RepeatedFailureLog;

  beforeEach(() => {
    now = 1_000_000;
    const memory = memoryLogger();
    lines = memory.lines;
    log = new RepeatedFailureLog(memory.logger, 'webhook relay', () => now);
  });

  it('logs the first failure of a run as an error, with the error named and no stack', () => {
    log.failed(new Error('SQLite file is locked'));
    expect(parsed(lines)).to.have.lengthOf(1);
    expect(parsed(lines)[0]).to.include({
      level: 'error',
      msg: 'webhook relay failed',
      errorName: 'Error',
      errorMessage: 'SQLite file is locked',
    });
    expect(lines[0]).not.to.include('at ');
  });

  it('logs the repeats of one minute not at all, then once with how many there were and for how long', () => {
    log.failed(new Error('down'));
    for (let i = 0; i < 59; i++) {
      now += 1_000;
      log.failed(new Error('down'));
    }
    expect(parsed(lines)).to.have.lengthOf(1);
    now += 1_000;
    log.failed(new Error('down'));
    expect(parsed(lines)).to.have.lengthOf(2);
    expect(parsed(lines)[1]).to.include({
      level: 'error',
      msg: 'webhook relay still failing',
      failuresSinceLastLine: 60,
      failingForMs: REPEAT_EVERY_MS,
    });
    now += 1_000;
    log.failed(new Error('down'));
    expect(parsed(lines)).to.have.lengthOf(2);
  });

  it('says once that it recovered, and a later failure starts a new run', () => {
    log.failed(new Error('down'));
    now += 5_000;
    log.failed(new Error('down'));
    log.succeeded();
    log.succeeded();
    expect(parsed(lines).map((line) => line['msg'])).to.deep.equal(['webhook relay failed', 'webhook relay recovered']);
    expect(parsed(lines)[1]).to.include({ level: 'info', failingForMs: 5_000 });
    log.failed(new Error('down again'));
    expect(parsed(lines)[2]).to.include({ msg: 'webhook relay failed', errorMessage: 'down again' });
  });

  it('writes nothing while all is well', () => {
    log.succeeded();
    expect(lines).to.deep.equal([]);
  });
});

describe('the webhook worker while the store is down', () => {
  it('polls on, but logs one line for a run of failures and one when the store is back', async () => {
    const { logger, lines } = memoryLogger();
    let down = true;
    let relays = 0;
    const unavailable = async (): Promise<never> => {
      throw new Error('the store is unavailable');
    };
    const useCases = {
      relayOrderEvents: {
        execute: async () => {
          relays++;
          return down ? unavailable() : 0;
        },
      },
      deliverWebhooks: {
        claim: async () => (down ? unavailable() : []),
        purgeExpired: async () => 0,
      },
    } as unknown as Pick<UseCases, 'relayOrderEvents' | 'deliverWebhooks'>;
    const worker = new WebhookWorker(useCases, new WebhookDoorbells(), { concurrency: 2, pollIntervalMs: 5 }, logger);
    const messagesOf = (): unknown[] => parsed(lines).map((line) => line['msg']);
    worker.start();
    await eventually('30 relay polls while the store is down', async () => relays >= 30);
    down = false;
    await eventually('both loops logged that the store is back', async () =>
      ['webhook relay recovered', 'claiming webhook deliveries recovered'].every((msg) => messagesOf().includes(msg)),
    );
    await worker.stop(new AbortController().signal);

    const messages = messagesOf();
    expect(messages.filter((msg) => msg === 'webhook relay failed')).to.have.lengthOf(1);
    expect(messages.filter((msg) => msg === 'claiming webhook deliveries failed')).to.have.lengthOf(1);
    expect(messages.filter((msg) => typeof msg === 'string' && msg.endsWith('still failing'))).to.have.lengthOf(0);
    expect(messages.filter((msg) => msg === 'webhook relay recovered')).to.have.lengthOf(1);
    expect(messages.filter((msg) => msg === 'claiming webhook deliveries recovered')).to.have.lengthOf(1);
  });
});
