import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { createMongoStorage, databaseFromUri } from '../../../src/adapters/mongodb/mongo-storage';
import { memoryLogger } from '../../support/memory-log';

describe('databaseFromUri', () => {
  const cases: [string, string | undefined][] = [
    ['mongodb://127.0.0.1:27017', undefined],
    ['mongodb://127.0.0.1:27017/', undefined],
    ['mongodb://127.0.0.1:27017/?authSource=admin', undefined],
    ['mongodb://127.0.0.1:27017?replicaSet=rs0', undefined],
    ['mongodb://127.0.0.1:27017/shop', 'shop'],
    ['mongodb://127.0.0.1:27017/shop?retryWrites=false', 'shop'],
    ['mongodb://alice:p%2Fss@a:1,b:2,c:3/shop?replicaSet=rs0', 'shop'],
    ['mongodb+srv://alice:secret@cluster0.example.net/orders_prod?w=majority', 'orders_prod'],
    ['mongodb://h/my%2Ddb', 'my-db'],
  ];
  for (const [uri, expected] of cases) {
    it(`reads ${String(expected)} from ${uri}`, () => {
      expect(databaseFromUri(uri)).to.equal(expected);
    });
  }
});

describe('MongoDB storage description', () => {
  it('names MongoDB, the database and the hosts, never the credentials of the URI', async () => {
    const client = new MongoClient('mongodb://alice:s3cr3t-pass@127.0.0.1:1,127.0.0.2:2/shop?authSource=admin');
    const storage = createMongoStorage(client, 'shop', memoryLogger().logger);
    try {
      expect(storage.description).to.include('MongoDB').and.include('"shop"').and.include('127.0.0.1:1');
      expect(storage.description).not.to.include('alice');
      expect(storage.description).not.to.include('s3cr3t');
      expect(storage.persistent).to.equal(true);
    } finally {
      await storage.health.close();
    }
  });
});
