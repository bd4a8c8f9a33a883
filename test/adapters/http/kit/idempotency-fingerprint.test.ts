import { expect } from 'chai';
import { fingerprintInStretches, requestFingerprint } from '../../../../src/adapters/http/kit/middleware/idempotency';
import { anOrderAtItsLimits, anOrderPayload } from '../../../support/order-builder';

describe('the Idempotency-Key fingerprint hashed in stretches (decisions 0007, 0023)', () => {
  it('is the fingerprint of the whole body, whatever its shape', async () => {
    const bodies: unknown[] = [
      anOrderPayload({ metadata: { z: [1, { b: 2, a: [3] }], a: null } }),
      { orders: [anOrderAtItsLimits('a'), anOrderPayload({ externalId: 'b' }), 7, 'x', [[]]] },
      [{ b: 1, a: 2 }, [1, [2, [3]]], {}],
      'just a string',
      42,
      null,
      {},
      [],
    ];
    for (const body of bodies) {
      expect(await fingerprintInStretches('POST', '/api/v1/orders/batch', body)).to.equal(
        requestFingerprint('POST', '/api/v1/orders/batch', body),
      );
    }
  });
});
