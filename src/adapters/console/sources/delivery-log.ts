import type { SourceDelivery } from '../../../domain/source';
import type { SourceDeliveryPage } from '../../../application/ports/source-delivery-log';
import { count, dateTime } from '../kit/format';
import { html, type Fragment } from '../kit/html';
import { table } from '../kit/table';

/** Deliveries per page of the log. */
export const LOG_PAGE_SIZE = 50;

/** The words of the log for each outcome: what the delivery did. */
const OUTCOMES: Readonly<Record<SourceDelivery['outcome'], string>> = {
  created: 'Created the order',
  updated: 'Updated the order',
  ignored: 'Ignored',
  refused: 'Refused',
};

/** Said by the use case when the transition table refused a status change. */
const isRefusedTransition = (delivery: SourceDelivery): boolean =>
  delivery.outcome === 'refused' && (delivery.reason ?? '').startsWith('the transition table does not allow');

const isBadSignature = (delivery: SourceDelivery): boolean => (delivery.reason ?? '').startsWith('bad signature');

/** What to do about the lines shown: allow a change that was refused, or check the secret. */
const hints = (deliveries: readonly SourceDelivery[]): Fragment => [
  deliveries.some(isRefusedTransition)
    ? html`<div class="notice" id="allow-transitions">
        <p>
          <strong>A status change was refused by the transition table.</strong> The order stays as it was, and the platform is not asked to
          send it again.
        </p>
        <p>
          To let sources make such changes, point <code>ORDER_TRANSITIONS_FILE</code> at a JSON file that allows them, for example
          <code
            >{ "pending": ["paid", "refused"], "refused": ["paid"], "paid": ["refunded", "chargedback"], "refunded": ["chargedback"] }</code
          >, restart the service, and resend the event from the platform: an event that was refused is applied when it comes again.
        </p>
      </div>`
    : '',
  deliveries.some(isBadSignature)
    ? html`<div class="notice" id="check-secret">
        <p>
          <strong>A delivery’s signature did not match this source’s secret</strong> (answered 401: the platform retries it). Check that the
          secret is the platform’s, and replace it above if it is not.
        </p>
      </div>`
    : '',
];

/** Where a delivery's order is: a link to it once the delivery made or changed it. */
const orderOf = (delivery: SourceDelivery): Fragment =>
  delivery.externalId === undefined || delivery.outcome === 'refused' || delivery.outcome === 'ignored'
    ? (delivery.externalId ?? '—')
    : html`<a href="/console/orders/${encodeURIComponent(delivery.externalId)}">${delivery.externalId}</a>`;

/** One page of a source's log, newest first, with the links to the pages around it. */
export const deliveryLog = (path: string, log: SourceDeliveryPage, page: number, zone: string): Fragment => {
  if (log.total === 0) return html`<p>No deliveries yet. Once the platform sends its first event (or its test), it appears here.</p>`;
  const pages = Math.max(1, Math.ceil(log.total / LOG_PAGE_SIZE));
  return html`${hints(log.deliveries)}
    <p class="muted">${count(log.total)} deliveries kept (the last 1,000), times in ${zone}.</p>
    ${table({
      label: 'Delivery log',
      rows: log.deliveries,
      rowData: (delivery) => ({ 'data-delivery': delivery.id, 'data-outcome': delivery.outcome }),
      columns: [
        { header: 'Received', cell: (delivery) => dateTime(delivery.receivedAt, zone) },
        { header: 'Event', cell: (delivery) => html`<code>${delivery.eventId ?? '—'}</code>` },
        { header: 'Topic', cell: (delivery) => delivery.topic ?? '—' },
        { header: 'Outcome', cell: (delivery) => OUTCOMES[delivery.outcome] },
        { header: 'Why', cell: (delivery) => delivery.reason ?? '—' },
        { header: 'Order', cell: orderOf },
      ],
    })}
    <nav class="pages" aria-label="Delivery log pages">
      ${page > 1 ? html`<a href="${path}?page=${page - 1}">Newer</a>` : ''}
      <span>Page ${page} of ${pages}</span>
      ${page < pages ? html`<a href="${path}?page=${page + 1}">Older</a>` : ''}
    </nav>`;
};
