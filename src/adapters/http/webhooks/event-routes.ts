import * as E from 'fp-ts/Either';
import { ORDER_EVENT_TYPES } from '../../../domain/order-events';
import { arrayOf, bool, defaulted, oneOf, str, strictObject } from '../kit/codec-kit';
import { described } from '../kit/json-schema';
import { intParam, single } from '../kit/list-query';
import { route } from '../kit/route';
import { OrderWebhookEvent } from './webhook-views';

const MAX_EVENTS = 100;

const EventsQuery = strictObject(
  'ListEventsQuery',
  {},
  {
    after: described(single(str(1, 64)), 'The `id` of the last event you received: the events after it. From the oldest kept when absent.'),
    type: described(single(oneOf(ORDER_EVENT_TYPES)), 'Only events of this type.'),
    limit: defaulted(described(single(intParam(1, MAX_EVENTS)), 'At most this many events.'), MAX_EVENTS),
  },
);

const EventList = strictObject('EventList', {
  events: described(arrayOf(OrderWebhookEvent, 0, MAX_EVENTS), 'Oldest first; each exactly the body its webhook carries (decision 0012).'),
  hasMore: described(bool, 'Whether more events follow: ask again with the last `id` as `after`.'),
});

export const listEventsRoute = route({
  method: 'get',
  path: '/api/v1/events',
  operationId: 'listEvents',
  summary: "The dashboard's order events of the last 30 days",
  description:
    'A feed to read with a cursor (decision 0019): call it with the `id` of the last event you received as `after`, and every ' +
    'event comes once, in `data.order.version` order for each order, even with several instances of the service whose clocks ' +
    'differ by up to a second. An event may appear a few seconds after its write (on MongoDB, 5 s), never before an earlier ' +
    'one of its order. Events are kept 30 days.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'orders:read',
  query: EventsQuery,
  responses: { 200: { description: 'The events after `after`.', body: EventList } },
  problems: [],
  handle: async ({ principal, query }, { useCases }) => {
    const listed = await useCases.listEvents.execute(principal.dashboardId, {
      ...(query.after === undefined ? {} : { after: query.after }),
      ...(query.type === undefined ? {} : { type: query.type }),
      limit: query.limit,
    });
    if (listed === undefined)
      return E.left({
        _tag: 'ValidationFailed',
        details: [{ path: 'query.after', message: "must be the id of an event of this dashboard's feed of the last 30 days" }],
      });
    return E.right({ status: 200 as const, body: { events: listed.events as never, hasMore: listed.hasMore } });
  },
});
