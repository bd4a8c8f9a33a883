import { pipe } from 'fp-ts/function';
import { reply } from '../kit/replies';
import { route } from '../kit/route';
import { DeliveryReceipt, SourcePath } from './source-codecs';

/**
 * Where platforms post (decision 0021): no bearer token, the platform's signature over the raw body
 * is the authentication. Everything but a bad signature, an unknown source and a store that is down
 * is answered 200, so that platforms neither retry nor disable the endpoint.
 */
export const receiveDeliveryRoute = route({
  method: 'post',
  path: '/in/v1/{sourceId}',
  operationId: 'receiveSourceDelivery',
  summary: "A platform's webhook, to a source",
  description:
    "The URL of a source, for its platform to post its webhooks to: no token, the platform's own signature of the body " +
    "(Shopify `X-Shopify-Hmac-Sha256`; Stripe `Stripe-Signature`, within 5 minutes) checked with the source's secret before " +
    'the body is read. Each delivery creates or updates one order through the same rules as the API (validation, status ' +
    'transitions, events, webhooks, reports), or is ignored (another topic, a test, a retry, an older event) or refused (it ' +
    "cannot become an order, or the transition table refuses the change): always 200, and one line in the source's log. " +
    'The body may be up to BODY_LIMIT_BYTES.',
  tag: 'sources',
  guards: [],
  rawBody: true,
  params: SourcePath,
  responses: { 200: { description: 'The delivery was received; `outcome` says what became of it.', body: DeliveryReceipt } },
  problems: ['SourceSignatureInvalid', 'UnknownSource'],
  handle: async ({ params, raw }, { useCases }) =>
    pipe(
      await useCases.receiveSourceDelivery.execute(params.sourceId, raw ?? { body: new Uint8Array(), headers: {} }),
      reply(200, (delivery) => ({ received: true as const, outcome: delivery.outcome })),
    ),
});
