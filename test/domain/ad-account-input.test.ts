import { expect } from 'chai';
import { googleClickConversion } from '../../src/adapters/ads/google/google-conversions';
import { CONVERSION_FIELD_FORMS, conversionsFor } from '../../src/domain/ad-account-input';

/** The examples a form's words give in parentheses. */
const examplesOf = (form: string): string[] => [...form.matchAll(/\(([^()]+)\)/g)].map((m) => m[1]);

describe('the conversion settings an ad account is given', () => {
  it('accepts the examples its own refusals give, for every field', () => {
    for (const [name, { pattern, form }] of Object.entries(CONVERSION_FIELD_FORMS)) {
      const examples = examplesOf(form);
      expect(examples, name).to.not.be.empty;
      for (const example of examples) expect(pattern.test(example), `${name}: ${example}`).to.equal(true);
    }
  });

  it("takes each platform's own field in the forms its screens show, and the test codes", () => {
    expect(conversionsFor('meta', { enabled: true, pixelId: '1234567890123456', testEventCode: 'TEST12345' })).to.deep.equal({
      ok: { enabled: true, target: '1234567890123456', testEventCode: 'TEST12345' },
    });
    for (const action of ['987654321', 'customers/1234567890/conversionActions/987654321'])
      expect(conversionsFor('google', { enabled: true, conversionAction: action, validateOnly: true })).to.deep.equal({
        ok: { enabled: true, target: action, validateOnly: true },
      });
    expect(conversionsFor('tiktok', { enabled: false, pixelCode: 'C4ABCDEFGH12345678IJ' })).to.deep.equal({
      ok: { enabled: false, target: 'C4ABCDEFGH12345678IJ' },
    });
  });

  it('sends Google the action it was given, whichever of its two forms', () => {
    const conversion = {
      kind: 'purchase' as const,
      orderId: 'ord_1',
      externalId: '1001',
      occurredAt: new Date('2026-11-27T10:00:00Z'),
      valueCents: 100,
      currency: 'BRL',
      click: { name: 'gclid' as const, value: 'EAIa', capturedAt: new Date('2026-11-27T09:00:00Z') },
    };
    const name = 'customers/1234567890/conversionActions/987654321';
    expect(googleClickConversion('1234567890', '987654321', conversion).conversionAction).to.equal(name);
    expect(googleClickConversion('1234567890', name, conversion).conversionAction).to.equal(name);
  });

  it('refuses what cannot be the field, naming it with the form it takes and an example', () => {
    const refused = (result: ReturnType<typeof conversionsFor>) => ('problems' in result ? result.problems : []);
    expect(refused(conversionsFor('meta', { enabled: true, pixelId: 'px-1', testEventCode: 'TEST 1' }))).to.deep.equal([
      { path: 'conversions.pixelId', message: `must be ${CONVERSION_FIELD_FORMS.pixelId.form}` },
      { path: 'conversions.testEventCode', message: `must be ${CONVERSION_FIELD_FORMS.testEventCode.form}` },
    ]);
    for (const action of ['customers/123/conversionActions/9', 'conversionActions/9', '9 ', 'customers/1234567890/conversionActions/'])
      expect(refused(conversionsFor('google', { enabled: true, conversionAction: action })), action).to.deep.equal([
        { path: 'conversions.conversionAction', message: `must be ${CONVERSION_FIELD_FORMS.conversionAction.form}` },
      ]);
    expect(refused(conversionsFor('tiktok', { enabled: true, pixelCode: 'cpixel1' }))[0].path).to.equal('conversions.pixelCode');
    expect(refused(conversionsFor('tiktok', { enabled: false }))).to.deep.equal([
      { path: 'conversions.pixelCode', message: `is required for TikTok: ${CONVERSION_FIELD_FORMS.pixelCode.form}` },
    ]);
    expect(CONVERSION_FIELD_FORMS.pixelCode.form).to.contain('(C4ABCDEFGH12345678IJ)');
  });
});
