import { expect } from 'chai';
import {
  changeWebhookEndpoint,
  disableWebhookEndpoint,
  newWebhookEndpoint,
  rotateWebhookSecret,
  SECRET_OVERLAP_MS,
  signingSecrets,
  subscribes,
  WEBHOOK_EVENT_TYPES,
} from '../../src/domain/webhook';
import { anEndpoint } from '../support/webhook-builders';

const now = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number): Date => new Date(now.getTime() + ms);

describe('webhook endpoints', () => {
  it('know the seven event types of decision 0012: the six order events and webhook.test', () => {
    expect(WEBHOOK_EVENT_TYPES).to.deep.equal([
      'order.created',
      'order.updated',
      'order.paid',
      'order.refused',
      'order.refunded',
      'order.chargedback',
      'webhook.test',
    ]);
  });

  it('start enabled, at version 1, with their events once each and no description unless given', () => {
    const endpoint = newWebhookEndpoint(
      { url: 'https://h.example', events: ['order.paid', 'order.paid', 'order.created'] },
      { id: 'whk_1', dashboardId: 'dsh_a' },
      'whsec_x',
      now,
    );
    expect(endpoint).to.deep.equal({
      id: 'whk_1',
      dashboardId: 'dsh_a',
      url: 'https://h.example',
      events: ['order.paid', 'order.created'],
      enabled: true,
      secret: 'whsec_x',
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
  });

  describe('subscriptions', () => {
    it('send every type to an endpoint with no events listed', () => {
      for (const type of WEBHOOK_EVENT_TYPES) expect(subscribes(anEndpoint('whk_1'), type), type).to.equal(true);
    });

    it('send only the listed types otherwise', () => {
      const endpoint = anEndpoint('whk_1', { events: ['order.paid', 'order.refunded'] });
      expect(WEBHOOK_EVENT_TYPES.filter((type) => subscribes(endpoint, type))).to.deep.equal(['order.paid', 'order.refunded']);
    });

    it('send nothing to a disabled endpoint', () => {
      for (const type of WEBHOOK_EVENT_TYPES) expect(subscribes(anEndpoint('whk_1', { enabled: false }), type), type).to.equal(false);
    });
  });

  describe('changes', () => {
    it('apply the given fields, with the next version and the time', () => {
      const changed = changeWebhookEndpoint(
        anEndpoint('whk_1', { description: 'old' }),
        { url: 'https://new.example', events: ['order.paid'], description: null },
        now,
      );
      expect(changed).to.deep.equal({
        ...anEndpoint('whk_1'),
        url: 'https://new.example',
        events: ['order.paid'],
        version: 2,
        updatedAt: now,
      });
      expect(changed).not.to.have.property('description');
    });

    it('clear the reason the service disabled an endpoint for when it is enabled again', () => {
      const disabled = disableWebhookEndpoint(anEndpoint('whk_1'), 'gone', now);
      expect(disabled).to.deep.include({ enabled: false, disabledReason: 'gone', version: 2 });
      const enabled = changeWebhookEndpoint(disabled, { enabled: true }, later(1));
      expect(enabled).to.deep.include({ enabled: true, version: 3 });
      expect(enabled).not.to.have.property('disabledReason');
      expect(changeWebhookEndpoint(disabled, { description: 'still off' }, later(1))).to.deep.include({ disabledReason: 'gone' });
    });

    it('keep the same version when nothing changes', () => {
      const endpoint = anEndpoint('whk_1', { events: ['order.paid'], description: 'd' });
      expect(changeWebhookEndpoint(endpoint, { url: endpoint.url, events: ['order.paid'], description: 'd', enabled: true }, now)).to.equal(
        endpoint,
      );
    });
  });

  describe('secrets', () => {
    it('sign with the current secret alone before any rotation', () => {
      expect(signingSecrets(anEndpoint('whk_1', { secret: 'whsec_a' }), now)).to.deep.equal(['whsec_a']);
    });

    it('sign with the new secret first and the previous one beside it for 24 h after a rotation, then with the new one alone', () => {
      const rotated = rotateWebhookSecret(anEndpoint('whk_1', { secret: 'whsec_a' }), 'whsec_b', now);
      expect(rotated).to.deep.include({
        secret: 'whsec_b',
        previousSecret: { secret: 'whsec_a', expiresAt: later(SECRET_OVERLAP_MS) },
        version: 2,
      });
      expect(signingSecrets(rotated, later(SECRET_OVERLAP_MS - 1))).to.deep.equal(['whsec_b', 'whsec_a']);
      expect(signingSecrets(rotated, later(SECRET_OVERLAP_MS))).to.deep.equal(['whsec_b']);
    });

    it('keep only the last replaced secret after two rotations', () => {
      const twice = rotateWebhookSecret(
        rotateWebhookSecret(anEndpoint('whk_1', { secret: 'whsec_a' }), 'whsec_b', now),
        'whsec_c',
        later(1),
      );
      expect(signingSecrets(twice, later(2))).to.deep.equal(['whsec_c', 'whsec_b']);
    });
  });
});
