import { expect } from 'chai';
import {
  afterAttempt,
  failedUnsent,
  MAX_RETRY_AFTER_SECONDS,
  newDelivery,
  type AttemptResult,
  type Delivery,
} from '../../src/domain/delivery';
import { aDelivery } from '../support/webhook-builders';

const at = new Date('2026-03-01T12:00:00.000Z');
const SCHEDULE = [5, 300, 1800];
const MIDDLE = 0.5;
const answered = (status: number, retryAfterSeconds?: number): AttemptResult => ({
  kind: 'response',
  status,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});
const attempt = (delivery: Delivery, result: AttemptResult, jitter = MIDDLE) =>
  afterAttempt(delivery, { at, durationMs: 20, result }, SCHEDULE, jitter);
const inMs = (delivery: Delivery): number => delivery.nextAttemptAt!.getTime() - at.getTime();

/** `delivery` after `n` failed attempts. */
const failedTimes = (n: number, delivery = aDelivery('dlv_1')): Delivery =>
  Array.from({ length: n }).reduce<Delivery>((d) => attempt(d, answered(500)).delivery, delivery);

describe('deliveries', () => {
  it('start pending, due at once, with no attempts and automatic retries', () => {
    const fields = {
      id: 'dlv_1',
      dashboardId: 'dsh_a',
      endpointId: 'whk_1',
      eventId: 'evt_1',
      eventType: 'order.paid' as const,
      payload: {},
      body: '{}',
    };
    expect(newDelivery(fields, at)).to.deep.equal({
      ...fields,
      status: 'pending',
      attempts: [],
      nextAttemptAt: at,
      createdAt: at,
      automaticRetries: true,
    });
  });

  it('succeed on any 2xx, recording the attempt, with no next attempt', () => {
    for (const status of [200, 201, 202, 204, 299]) {
      const { delivery, gone } = attempt(aDelivery('dlv_1'), answered(status));
      expect(delivery.status, String(status)).to.equal('succeeded');
      expect(delivery.attempts).to.deep.equal([{ at, durationMs: 20, responseStatus: status }]);
      expect(delivery).not.to.have.property('nextAttemptAt');
      expect(gone).to.equal(false);
    }
  });

  it('are retried after the schedule on anything else: 3xx (redirects are not followed), 4xx, 5xx and no answer', () => {
    for (const result of [
      answered(301),
      answered(400),
      answered(404),
      answered(500),
      answered(199),
      { kind: 'error' as const, message: 'connection refused' },
    ]) {
      const { delivery } = attempt(aDelivery('dlv_1'), result);
      expect(delivery.status).to.equal('pending');
      expect(inMs(delivery)).to.equal(20 + 5_000);
    }
  });

  it('record the error of an attempt that got no answer', () => {
    expect(attempt(aDelivery('dlv_1'), { kind: 'error', message: 'no answer within 15000 ms' }).delivery.attempts).to.deep.equal([
      { at, durationMs: 20, error: 'no answer within 15000 ms' },
    ]);
  });

  it('record the start of the response body a receiver answered with, and whether it was cut', () => {
    const body = { text: '{"error":"unknown order"}', truncated: true };
    expect(attempt(aDelivery('dlv_1'), { kind: 'response', status: 422, body }).delivery.attempts).to.deep.equal([
      { at, durationMs: 20, responseStatus: 422, responseBody: '{"error":"unknown order"}', responseBodyTruncated: true },
    ]);
  });

  it('follow the schedule delay by delay, counted from the end of the attempt, then fail after the last', () => {
    expect(inMs(failedTimes(1))).to.equal(20 + 5_000);
    expect(inMs(failedTimes(2))).to.equal(20 + 300_000);
    expect(inMs(failedTimes(3))).to.equal(20 + 1_800_000);
    const last = failedTimes(4);
    expect(last.status).to.equal('failed');
    expect(last.attempts).to.have.length(SCHEDULE.length + 1);
    expect(last).not.to.have.property('nextAttemptAt');
  });

  it('move each delay by at most 10 % either way', () => {
    expect(inMs(attempt(aDelivery('dlv_1'), answered(500), 0).delivery)).to.equal(20 + 4_500);
    expect(inMs(attempt(aDelivery('dlv_1'), answered(500), 0.999999).delivery)).to.be.within(20 + 5_499, 20 + 5_500);
  });

  it('wait for Retry-After when it is longer than the schedule, up to 1 h, and never less than the schedule', () => {
    expect(inMs(attempt(aDelivery('dlv_1'), answered(503, 120)).delivery)).to.equal(20 + 120_000);
    expect(inMs(attempt(aDelivery('dlv_1'), answered(429, 2)).delivery)).to.equal(20 + 5_000);
    expect(inMs(attempt(aDelivery('dlv_1'), answered(503, 86_400)).delivery)).to.equal(20 + MAX_RETRY_AFTER_SECONDS * 1000);
  });

  it('fail for good on 410 Gone and say the endpoint is to be disabled', () => {
    const { delivery, gone } = attempt(aDelivery('dlv_1'), answered(410));
    expect(gone).to.equal(true);
    expect(delivery.status).to.equal('failed');
    expect(delivery).not.to.have.property('nextAttemptAt');
  });

  it('make one attempt only after a manual retry of a finished delivery (no automatic retries)', () => {
    const once = attempt(aDelivery('dlv_1', { automaticRetries: false }), answered(500)).delivery;
    expect(once.status).to.equal('failed');
    expect(attempt(aDelivery('dlv_1', { automaticRetries: false }), answered(200)).delivery.status).to.equal('succeeded');
  });

  it('fail unsent when their endpoint is disabled', () => {
    const failed = failedUnsent(aDelivery('dlv_1'));
    const { nextAttemptAt: _n, ...rest } = aDelivery('dlv_1');
    expect(failed).to.deep.equal({ ...rest, status: 'failed' });
    expect(failed).not.to.have.property('nextAttemptAt');
  });
});
