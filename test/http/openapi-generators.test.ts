import { expect } from 'chai';
import { openApiDocument } from '../../src/adapters/http/openapi';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhook';
import { doc, documentedOperations, operation } from './openapi-support';

/** Every schema object of the document with its pointer: the components', the operations', the webhooks'. */
const schemasOf = (node: unknown, pointer: string, out: [string, Record<string, unknown>][] = []): [string, Record<string, unknown>][] => {
  if (Array.isArray(node)) node.forEach((item, i) => schemasOf(item, `${pointer}/${i}`, out));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key}`;
      const isSchema =
        key === 'schema' || key === 'items' || key === 'additionalProperties' || key === 'propertyNames' || key === 'not' || key === 'if';
      if (isSchema && typeof value === 'object' && value !== null && !Array.isArray(value))
        out.push([at, value as Record<string, unknown>]);
      if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value))
        value.forEach((member: unknown, i) => out.push([`${at}/${i}`, member as Record<string, unknown>]));
      if (key === 'properties' && typeof value === 'object' && value !== null)
        for (const [name, schema] of Object.entries(value)) out.push([`${at}/${name}`, schema as Record<string, unknown>]);
      schemasOf(value, at, out);
    }
  }
  return out;
};

/** What client generators need of the document : each rule here broke one of them before. */
describe('OpenAPI document, as client generators read it', () => {
  it('has no $defs anywhere: every schema that others refer to is a component of its own', () => {
    expect(JSON.stringify(doc)).not.to.include('$defs');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((ref) => !/^#\/components\/(schemas|headers|parameters|responses)\/[A-Za-z0-9]+$/.test(ref))).to.deep.equal([]);
  });

  it('gives every schema a type, or makes it a reference', () => {
    const components = Object.entries(doc.components.schemas).map(([name, schema]) => [`#/components/schemas/${name}`, schema] as const);
    const all = [
      ...components,
      ...schemasOf(doc.paths, '#/paths'),
      ...schemasOf(doc.webhooks, '#/webhooks'),
      ...schemasOf(doc.components.schemas, '#/components/schemas'),
    ];
    const untyped = all.filter(([, schema]) => schema['type'] === undefined && schema['$ref'] === undefined).map(([pointer]) => pointer);
    // A nullable reference is a union of the reference and null: both members are typed.
    expect(untyped.filter((pointer) => !all.some(([p, s]) => pointer === p && Array.isArray(s['anyOf'])))).to.deep.equal([]);
  });

  it('types every problem response with the Problem component, never a narrowing allOf, and gives an example of each code', () => {
    for (const [method, path] of documentedOperations().map((key) => key.split(' ') as [string, string])) {
      for (const [status, response] of Object.entries(operation(path, method).responses)) {
        const content = 'content' in response ? response.content?.['application/problem+json'] : undefined;
        if (content === undefined) continue;
        expect(content.schema, `${method} ${path} ${status}`).to.deep.equal({ $ref: '#/components/schemas/Problem' });
        expect(Object.keys(content.examples ?? {}), `${method} ${path} ${status}`).not.to.deep.equal([]);
      }
    }
  });

  it('names a server, and says the security of every operation, webhooks included', () => {
    expect(openApiDocument.servers).to.deep.equal([{ url: '/', description: openApiDocument.servers[0]?.description }]);
    for (const key of documentedOperations()) {
      const [method, path] = key.split(' ') as [string, string];
      expect(operation(path, method).security, key).to.be.an('array');
    }
    for (const type of WEBHOOK_EVENT_TYPES) expect(openApiDocument.webhooks[type]?.post.security, type).to.deep.equal([]);
  });

  it('gives every webhook an operationId and a body of its own kind, the union discriminated by type', () => {
    const ids = WEBHOOK_EVENT_TYPES.map((type) => openApiDocument.webhooks[type]?.post.operationId);
    expect(ids).to.deep.equal([
      'orderCreatedWebhook',
      'orderUpdatedWebhook',
      'orderPaidWebhook',
      'orderRefusedWebhook',
      'orderRefundedWebhook',
      'orderChargedbackWebhook',
      'webhookTestWebhook',
    ]);
    expect(openApiDocument.webhooks['order.paid']?.post.requestBody.content['application/json']?.schema).to.deep.equal({
      $ref: '#/components/schemas/OrderWebhookEvent',
    });
    expect(openApiDocument.webhooks['webhook.test']?.post.requestBody.content['application/json']?.schema).to.deep.equal({
      $ref: '#/components/schemas/TestWebhookEvent',
    });
    const event = doc.components.schemas['WebhookEvent'];
    expect(event.discriminator?.propertyName).to.equal('type');
    expect(event.discriminator?.mapping).to.deep.include({
      'order.created': '#/components/schemas/OrderWebhookEvent',
      'webhook.test': '#/components/schemas/TestWebhookEvent',
    });
  });

  it('describes the Idempotency-Key as one typed pattern, not a union of untyped ones', () => {
    const key = doc.components.parameters['IdempotencyKey'];
    expect(key.schema).to.include({ type: 'string' });
    expect(key.schema).not.to.have.property('anyOf');
  });
});
