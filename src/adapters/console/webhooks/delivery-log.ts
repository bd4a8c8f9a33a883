import { RESPONSE_BODY_LIMIT_BYTES, type Delivery, type DeliveryAttempt, type DeliveryStatus } from '../../../domain/delivery';
import { attemptsColumn, replyDetails } from '../kit/attempts';
import { count, dateTime } from '../kit/format';
import { html, type Html } from '../kit/html';
import { postButton, type Viewer } from '../kit/layout';
import { table } from '../kit/table';
import { EVENT_WORDS } from '../kit/words';

/** What the delivery log shows of a request's body: its first 2 KiB (decision 0022), escaped as any text. */
const SHOWN_BODY_CHARS = 2_048;
const sentBody = (body: string): string =>
  body.length <= SHOWN_BODY_CHARS ? body : `${body.slice(0, SHOWN_BODY_CHARS)}… (${count(body.length - SHOWN_BODY_CHARS)} more characters)`;

const DELIVERY_STATUS_WORDS: Readonly<Record<DeliveryStatus, string>> = { pending: 'Waiting', succeeded: 'Delivered', failed: 'Failed' };

/** One attempt: when, what came of it, and the start of the receiver's reply. */
const attemptLine =
  (zone: string) =>
  (attempt: DeliveryAttempt): Html =>
    html`<li data-attempt>
      ${dateTime(attempt.at, zone)}:
      ${attempt.responseStatus === undefined ? (attempt.error ?? 'no answer') : `HTTP ${attempt.responseStatus}`}
      (${count(attempt.durationMs)} ms)
      ${replyDetails(
        'What the receiver answered',
        attempt.responseBody,
        attempt.responseBodyTruncated === true
          ? html`<p class="muted">
              Cut: the receiver sent more than the first ${count(RESPONSE_BODY_LIMIT_BYTES / 1024)} KiB kept, or stopped before the end.
            </p>`
          : '',
      )}
    </li>`;

/** An endpoint's delivery log: each delivery's event, what was sent, its attempts with the replies, and a retry button. */
export const webhookDeliveryLog = (viewer: Viewer, endpointId: string, deliveries: readonly Delivery[]): Html => {
  const zone = viewer.dashboard.timezone;
  return table({
    label: 'Deliveries',
    rows: deliveries,
    empty: html`<p>No deliveries yet.</p>`,
    rowData: (d) => ({ 'data-delivery': d.id }),
    columns: [
      {
        header: 'Event',
        cell: (d) =>
          html`${EVENT_WORDS[d.eventType]}
            <details class="body">
              <summary>What was sent</summary>
              <pre><code>${sentBody(d.body)}</code></pre>
            </details>`,
      },
      { header: 'Created', cell: (d) => dateTime(d.createdAt, zone) },
      { header: 'Status', cell: (d) => DELIVERY_STATUS_WORDS[d.status] },
      attemptsColumn(attemptLine(zone)),
      {
        header: 'Retry',
        cell: (d) => postButton(viewer, `/console/webhooks/${endpointId}/deliveries/${d.id}/retry`, 'Retry', 'secondary'),
      },
    ],
  });
};
