import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { guarded } from '../../../src/adapters/mongodb/mongo-errors';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { rejectionOf } from '../../support/failures';

const serverError = (code: number, codeName: string): MongoServerError => new MongoServerError({ ok: 0, code, codeName, errmsg: codeName });

/** Which server errors answer 503 (not now) and which 500 (never): no server needed. */
describe('MongoDB server errors', () => {
  for (const [code, codeName] of [
    [14031, 'OutOfDiskSpace'],
    [371, 'UserWritesBlocked'],
    [10107, 'NotWritablePrimary'],
  ] as const) {
    it(`turn ${codeName} (${code}), a store that cannot write now, into StorageUnavailableError`, async () => {
      const failed = await rejectionOf(guarded(() => Promise.reject(serverError(code, codeName))));
      expect(failed).to.be.instanceOf(StorageUnavailableError);
      expect(failed.message).to.equal(`MongoDB cannot take the request now (MongoServerError ${code})`);
    });
  }

  it("turn the connection pool's refusals (cleared, closed, no connection in time) into StorageUnavailableError", async () => {
    // The driver's own classes, which it throws but does not export.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pool = require('mongodb/lib/cmap/errors') as Record<string, new (...args: unknown[]) => Error>;
    const address = { address: '10.0.0.7:27017' };
    for (const refusal of [
      new pool['PoolClearedError'](address, 'the pool was cleared'),
      new pool['PoolClosedError'](address),
      new pool['WaitQueueTimeoutError']('Timed out while checking out a connection from connection pool', '10.0.0.7:27017'),
    ]) {
      const failed = await rejectionOf(guarded(() => Promise.reject(refusal)));
      expect(failed, refusal.name).to.be.instanceOf(StorageUnavailableError);
      expect(failed.message).to.equal(`MongoDB cannot be reached (${refusal.name})`);
    }
  });

  it('leave a duplicate key (11000) and a bad value (2) as they are', async () => {
    for (const [code, codeName] of [
      [11000, 'DuplicateKey'],
      [2, 'BadValue'],
    ] as const) {
      const failed = await rejectionOf(guarded(() => Promise.reject(serverError(code, codeName))));
      expect(failed).to.be.instanceOf(MongoServerError);
    }
  });
});
