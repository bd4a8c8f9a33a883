import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { sinkDestination } from '../../../src/adapters/logging/log-destinations';
import { LOG_LEVELS, PinoLogger, type LogLevel } from '../../../src/adapters/logging/pino-logger';
import { memoryLogger } from '../../support/memory-log';

const parsed = (lines: readonly string[]): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('PinoLogger', () => {
  describe('line format', () => {
    it('writes one JSON object per line: level as its label, time in ISO 8601, msg, then the fields', () => {
      const { logger, lines } = memoryLogger();
      logger.info('order created', { orderId: 'ord_1', amountCents: 1500, isTest: false, missing: undefined });
      expect(lines).to.have.length(1);
      const line = lines[0];
      expect(line).not.to.include('\n');
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(entry)).to.deep.equal(['level', 'time', 'msg', 'orderId', 'amountCents', 'isTest']);
      expect(entry).to.deep.include({ level: 'info', msg: 'order created', orderId: 'ord_1', amountCents: 1500, isTest: false });
      expect(entry.time).to.match(ISO_8601);
      expect(new Date(entry.time as string).toISOString()).to.equal(entry.time);
    });

    it('writes no pid and no hostname', () => {
      const { logger, lines } = memoryLogger();
      logger.warn('w');
      expect(parsed(lines)[0]).to.have.all.keys('level', 'time', 'msg');
    });

    it('labels each level by its name', () => {
      const { logger, lines } = memoryLogger();
      logger.debug('d');
      logger.info('i');
      logger.warn('w');
      logger.error('e');
      expect(parsed(lines).map((entry) => [entry.level, entry.msg])).to.deep.equal([
        ['debug', 'd'],
        ['info', 'i'],
        ['warn', 'w'],
        ['error', 'e'],
      ]);
    });

    it('writes the message as it is, placeholders included', () => {
      const { logger, lines } = memoryLogger();
      logger.info('50% done, %s %d %j', { step: 1 });
      expect(parsed(lines)[0]?.msg).to.equal('50% done, %s %d %j');
    });
  });

  describe('levels', () => {
    const expected: Record<LogLevel, string[]> = {
      debug: ['debug', 'info', 'warn', 'error'],
      info: ['info', 'warn', 'error'],
      warn: ['warn', 'error'],
      error: ['error'],
      silent: [],
    };
    for (const level of LOG_LEVELS) {
      it(`writes ${expected[level].join(', ') || 'nothing'} at level ${level}`, () => {
        const lines: string[] = [];
        const logger = new PinoLogger(
          level,
          sinkDestination((line) => lines.push(line)),
        );
        logger.debug('debug');
        logger.info('info');
        logger.warn('warn');
        logger.error('error');
        expect(parsed(lines).map((entry) => entry.level)).to.deep.equal(expected[level]);
      });
    }
  });

  describe('redaction', () => {
    it('censors an authorization field, whatever its capital (the port has no nested fields to hide one in)', () => {
      const { logger, lines } = memoryLogger();
      logger.error('failed call', { authorization: 'Bearer top-secret-1', Authorization: 'Bearer top-secret-2', route: '/api/v1/orders' });
      expect(lines[0]).not.to.include('top-secret');
      expect(parsed(lines)[0]).to.deep.include({ authorization: '[Redacted]', Authorization: '[Redacted]', route: '/api/v1/orders' });
    });

    it('censors an authorization field of a context too', () => {
      const { logger, lines } = memoryLogger();
      logger.withContext({ authorization: 'Bearer top-secret-6' }, () => logger.info('inside'));
      expect(parsed(lines)[0]).to.deep.include({ authorization: '[Redacted]' });
    });
  });

  describe('withContext', () => {
    it('adds its fields to every line written by run, and returns what run returns', () => {
      const { logger, lines } = memoryLogger();
      const result = logger.withContext({ requestId: 'req-1' }, () => {
        logger.info('first');
        logger.error('second', { status: 500 });
        return 42;
      });
      logger.info('after');
      expect(result).to.equal(42);
      expect(parsed(lines).map((entry) => [entry.msg, entry.requestId, entry.status])).to.deep.equal([
        ['first', 'req-1', undefined],
        ['second', 'req-1', 500],
        ['after', undefined, undefined],
      ]);
    });

    it('reaches what run awaits and schedules, and nothing outside it', async () => {
      const { logger, lines } = memoryLogger();
      const running = logger.withContext({ requestId: 'req-2' }, async () => {
        await nextTurn();
        logger.info('after an await');
        await new Promise<void>((done) =>
          setTimeout(() => {
            logger.info('in a timer');
            done();
          }, 1),
        );
      });
      logger.info('outside, while run is waiting');
      await running;
      logger.info('outside, after run');
      const byMessage = Object.fromEntries(parsed(lines).map((entry) => [entry.msg, entry.requestId]));
      expect(byMessage).to.deep.equal({
        'after an await': 'req-2',
        'in a timer': 'req-2',
        'outside, while run is waiting': undefined,
        'outside, after run': undefined,
      });
    });

    it('keeps two concurrent contexts apart', async () => {
      const { logger, lines } = memoryLogger();
      const request = (id: string) =>
        logger.withContext({ requestId: id }, async () => {
          for (let step = 0; step < 5; step++) {
            await nextTurn();
            logger.info('step', { step, expected: id });
          }
        });
      await Promise.all([request('req-a'), request('req-b')]);
      const entries = parsed(lines);
      expect(entries).to.have.length(10);
      expect(entries.map((entry) => entry.requestId === 'req-a')).to.include.members([true, false]);
      for (const entry of entries) expect(entry.requestId).to.equal(entry.expected);
    });

    it('reaches lines written through another instance, as a store given its own logger does', () => {
      const { logger } = memoryLogger();
      const store = memoryLogger();
      logger.withContext({ requestId: 'req-3' }, () => store.logger.warn('from the store'));
      expect(parsed(store.lines)[0]).to.deep.include({ msg: 'from the store', requestId: 'req-3' });
    });

    it('writes a field both in the context and in the call once, with the call value', () => {
      const { logger, lines } = memoryLogger();
      logger.withContext({ requestId: 'from-context', route: '/x' }, () => logger.info('request', { requestId: 'from-call' }));
      expect(lines[0]?.match(/"requestId"/g)).to.have.length(1);
      expect(parsed(lines)[0]).to.deep.include({ requestId: 'from-call', route: '/x' });
    });

    it('keeps the context value of a field the call leaves undefined', () => {
      const { logger, lines } = memoryLogger();
      logger.withContext({ requestId: 'req-4' }, () => logger.info('request', { requestId: undefined }));
      expect(parsed(lines)[0]).to.deep.include({ requestId: 'req-4' });
    });

    it('adds a nested context to the one around it', () => {
      const { logger, lines } = memoryLogger();
      logger.withContext({ requestId: 'req-5', phase: 'outer' }, () => {
        logger.withContext({ phase: 'inner', attempt: 2 }, () => logger.info('nested'));
        logger.info('outer again');
      });
      const [nested, outer] = parsed(lines);
      expect(nested).to.deep.include({ requestId: 'req-5', phase: 'inner', attempt: 2 });
      expect(outer).to.deep.include({ requestId: 'req-5', phase: 'outer' });
      expect(outer).not.to.have.property('attempt');
    });
  });
});
