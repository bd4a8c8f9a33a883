import { expect } from 'chai';
import { runCli } from '../../src/bootstrap/cli';
import { describeWithMongo } from '../support/mongo-server';

describeWithMongo('orders-cli on MongoDB', (mongo) => {
  /** Runs the CLI as a shell would: the store comes from MONGODB_URI and MONGODB_DB. */
  const cli = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName };
    const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
  };

  it('manages dashboards and tokens that later commands and the storage of the service find again', async () => {
    const created = await cli(['dashboards', 'create', '--name', 'Persistent shop']);
    expect(created.code, created.err).to.equal(0);
    const dashboard = created.json().dashboard;
    expect((await cli(['dashboards', 'list'])).json().dashboards).to.deep.include(dashboard);

    const issued = (await cli(['tokens', 'create', '--dashboard', dashboard.id, '--name', 'ci'])).json().token;
    const storage = await mongo.connect();
    const stored = await storage.tokens.listByDashboard(dashboard.id);
    expect(stored.map((token) => token.id)).to.deep.equal([issued.id]);
    expect(JSON.stringify(stored)).not.to.include(issued.token);

    const revoked = await cli(['tokens', 'revoke', issued.id]);
    expect(revoked.code).to.equal(0);
    const listed = (await cli(['tokens', 'list', '--dashboard', dashboard.id])).json().tokens;
    expect(listed).to.have.length(1);
    expect(listed[0].revokedAt).to.equal(revoked.json().token.revokedAt);
  });

  it('answers 1 for a dashboard that is not in the database', async () => {
    const result = await cli(['tokens', 'list', '--dashboard', 'dsh_nowhere']);
    expect(result.code).to.equal(1);
    expect(result.err).to.include('no dashboard dsh_nowhere');
  });
});
