import { expect } from 'chai';
import { TestApi } from '../../../support/test-api';
import { anOrderPayload } from '../../../support/order-builder';

describe('JSON bodies and their content type', () => {
  let api: TestApi;
  let token: string;

  before(async () => {
    api = await TestApi.start();
    ({ token } = await api.newDashboard());
  });

  after(() => api.stop());

  it('accepts application/json with a charset', async () => {
    const response = await api.request('POST', '/api/v1/orders', {
      token,
      rawBody: JSON.stringify(anOrderPayload({ externalId: 'charset-1' })),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).to.equal(201);
  });

  for (const type of ['application/merge-patch+json', 'application/vnd.api+json', 'text/json', 'application/x-www-form-urlencoded']) {
    it(`answers 415 for ${type}, JSON body or not`, async () => {
      const response = await api.request('POST', '/api/v1/orders', {
        token,
        rawBody: JSON.stringify(anOrderPayload({ externalId: `type-${type}` })),
        headers: { 'content-type': type },
      });
      expect(response.status).to.equal(415);
      expect(response.body.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
    });
  }
});
