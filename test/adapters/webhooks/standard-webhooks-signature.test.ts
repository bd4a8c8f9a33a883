import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { signature, signedHeaders } from '../../../src/adapters/webhooks/standard-webhooks-signature';
import { RandomWebhookSecrets } from '../../../src/adapters/system/random-webhook-secrets';

const secrets = new RandomWebhookSecrets();

describe('Standard Webhooks signatures', () => {
  it("equal the standardwebhooks package's own signature, made by another HMAC implementation", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5bYqQn2MBuQ=';
    const body = '{"test": 2432232314, "note": "ção ✓"}';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).to.equal(
      new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), body),
    );
  });

  it('are verified by the standardwebhooks package, as a receiver would', () => {
    const secret = secrets.generate();
    const body = JSON.stringify({ id: 'evt_1', type: 'order.paid', data: { note: 'ção ✓' } });
    const headers = signedHeaders({ webhookId: 'evt_1', timestamp: new Date(), body, secrets: [secret] });
    expect(headers['webhook-id']).to.equal('evt_1');
    expect(headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(secrets.generate()).verify(body, headers)).to.throw('No matching signature found');
    expect(() => new Webhook(secret).verify(`${body} `, headers)).to.throw('No matching signature found');
  });

  it('carry one signature per secret while a rotated secret overlaps: each secret verifies', () => {
    const [current, previous] = [secrets.generate(), secrets.generate()];
    const body = '{"id":"evt_2"}';
    const headers = signedHeaders({ webhookId: 'evt_2', timestamp: new Date(), body, secrets: [current, previous] });
    expect(headers['webhook-signature'].split(' ')).to.have.length(2);
    expect(new Webhook(current).verify(body, headers)).to.deep.equal({ id: 'evt_2' });
    expect(new Webhook(previous).verify(body, headers)).to.deep.equal({ id: 'evt_2' });
  });

  it('put the timestamp of the attempt in seconds', () => {
    const headers = signedHeaders({
      webhookId: 'evt_3',
      timestamp: new Date('2026-03-01T12:00:00.999Z'),
      body: '{}',
      secrets: [secrets.generate()],
    });
    expect(headers['webhook-timestamp']).to.equal(String(Date.parse('2026-03-01T12:00:00Z') / 1000));
  });

  it('use secrets of 32 random bytes after whsec_', () => {
    const made = new Set(Array.from({ length: 50 }, () => secrets.generate()));
    expect(made.size).to.equal(50);
    for (const secret of made) expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.have.length(32);
  });
});
