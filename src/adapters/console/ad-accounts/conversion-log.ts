import { AD_PLATFORM_LABELS, CONVERSION_TARGET_FIELD, isTestMode, type AdAccount } from '../../../domain/ad-account';
import type { ConversionAttempt, ConversionDelivery, ConversionKind, ConversionStatus } from '../../../domain/conversion';
import { attemptsColumn, replyDetails } from '../kit/attempts';
import { count, dateTime } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { table } from '../kit/table';

const STATUS_WORDS: Readonly<Record<ConversionStatus, string>> = { pending: 'Waiting', succeeded: 'Accepted', failed: 'Not sent' };
const KIND_WORDS: Readonly<Record<ConversionKind, string>> = { purchase: 'Purchase', refund: 'Refund', chargeback: 'Chargeback' };
const OUTCOME_WORDS: Readonly<Record<ConversionAttempt['outcome'], string>> = {
  accepted: 'accepted',
  refused: 'refused',
  unavailable: 'not reached',
};
const TARGET_WORDS = { pixelId: 'dataset (pixel)', conversionAction: 'conversion action', pixelCode: 'pixel' } as const;

const outcomeOf = (attempt: ConversionAttempt): string =>
  `${OUTCOME_WORDS[attempt.outcome]}${attempt.test ? ' (test mode)' : ''}${attempt.responseStatus === undefined ? '' : `, HTTP ${attempt.responseStatus}`}`;

/** One attempt: when, what came of it with the platform's words, and the start of its reply. */
const attemptLine =
  (zone: string) =>
  (attempt: ConversionAttempt): Html =>
    html`<li data-attempt>
      ${dateTime(attempt.at, zone)}: ${outcomeOf(attempt)} (${count(attempt.durationMs)} ms)
      ${attempt.message === undefined ? '' : html`<br /><span class="muted">${attempt.message}</span>`}
      ${replyDetails('What the platform answered', attempt.reply)}
    </li>`;

/**
 * Where sending purchases back stands for the account: off, or on with its pixel (action) and test
 * mode, and the platform's refusal of the last conversion when there is one.
 */
export const conversionState = (account: AdAccount, zone: string): Fragment => {
  const settings = account.conversions;
  if (settings === undefined || !settings.enabled)
    return html`<p id="conversions-state">Off: no order is sent to ${AD_PLATFORM_LABELS[account.platform]}.</p>`;
  const problem = account.conversionProblem;
  const field = CONVERSION_TARGET_FIELD[account.platform];
  return html`<p id="conversions-state">
    On: each order that becomes paid is sent to the ${TARGET_WORDS[field]}
    <code>${settings.target}</code>${isTestMode(settings) ? ' in the platform’s test mode (counted nowhere)' : ''}.
    ${
      problem === undefined
        ? ''
        : html`<br /><span class="state-needsAttention">Needs attention</span>: ${problem.message}
            <span class="muted">(refused since ${dateTime(problem.since, zone)})</span>`
    }
  </p>`;
};

/** What was sent to match the buyer, by name: never the hashes. */
const matchedBy = (c: ConversionDelivery): string =>
  [
    ...(c.conversion.click === undefined ? [] : [c.conversion.click.name]),
    ...(c.conversion.hashedEmail === undefined ? [] : ['email (hashed)']),
    ...(c.conversion.hashedPhone === undefined ? [] : ['phone (hashed)']),
  ].join(', ');

/** The account's last conversions: the order, what matched the buyer, where it stands, each attempt with the platform's reply. */
export const conversionLog = (conversions: readonly ConversionDelivery[], zone: string): Html =>
  table({
    label: 'Conversions sent',
    rows: conversions,
    empty: html`<p>No order has been sent yet.</p>`,
    rowData: (c) => ({ 'data-conversion': c.id }),
    columns: [
      {
        header: 'Order',
        rowHeader: true,
        cell: (c) => html`${c.conversion.externalId}<br /><span class="muted">${dateTime(c.conversion.occurredAt, zone)}</span>`,
      },
      { header: 'Event', cell: (c) => KIND_WORDS[c.conversion.kind] },
      { header: 'Value', money: (c) => ({ cents: c.conversion.valueCents, currency: c.conversion.currency }) },
      { header: 'Matched by', cell: matchedBy },
      { header: 'Status', cell: (c) => STATUS_WORDS[c.status] },
      attemptsColumn(attemptLine(zone)),
    ],
  });
