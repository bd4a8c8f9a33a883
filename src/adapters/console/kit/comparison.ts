import { html, type Html } from './html';
import type { Period } from './period';

/** How the previous period is named: as long as the chosen one, counted in the dashboard's days. */
export const previousPeriodWords = (period: Period): string => {
  const days = Math.round((Date.parse(`${period.lastDay}T00:00:00Z`) - Date.parse(`${period.firstDay}T00:00:00Z`)) / 86_400_000) + 1;
  return days === 1 ? 'previous day' : `previous ${days} days`;
};

/** Whether a figure's change is relative (counts, money, multiples) or in percentage points (rates). */
export type ChangeKind = 'relative' | 'points';

/**
 * A figure's change against the previous period (decision 0022), as a person reads it: a sign and an
 * arrow in the text, so that it does not rest on colour; none when the previous figure is 0 or absent,
 * where a percentage means nothing. Rates (the approval rate) change in percentage points.
 */
const changeOf = (
  now: number | null | undefined,
  before: number | null | undefined,
  kind: ChangeKind,
): { readonly change: number; readonly words: string | undefined } | undefined => {
  if (now === null || now === undefined || before === null || before === undefined || before === 0) return undefined;
  const change = kind === 'points' ? (now - before) * 100 : ((now - before) / Math.abs(before)) * 100;
  const shown = Math.abs(change).toFixed(1);
  const unit = kind === 'points' ? ' points' : '%';
  return { change, words: shown === '0.0' ? undefined : `${change > 0 ? '▲ +' : '▼ −'}${shown}${unit}` };
};

/** A card's change, as the line under its figure: "▲ +12.3% vs previous 30 days". */
export const changeLine = (
  now: number | null | undefined,
  before: number | null | undefined,
  against: string,
  kind: ChangeKind = 'relative',
): Html => {
  const found = changeOf(now, before, kind);
  if (found === undefined) return html``;
  const words = found.words === undefined ? `No change vs ${against}` : `${found.words} vs ${against}`;
  return html`<dd class="change" data-change="${found.change.toFixed(1)}">${words}</dd>`;
};

/**
 * A table cell's change, under its figure: "▲ +12.3%"; the table says once what it is compared with
 * (`comparedWith`). Empty where the card would show nothing.
 */
export const changeInCell = (now: number | null | undefined, before: number | null | undefined, kind: ChangeKind = 'relative'): Html => {
  const found = changeOf(now, before, kind);
  if (found === undefined) return html``;
  return html`<br /><span class="muted change" data-change="${found.change.toFixed(1)}">${found.words ?? 'no change'}</span>`;
};

/** The sentence above a table whose cells show their change. */
export const comparedWith = (period: Period): Html =>
  html`<p class="muted">Under each figure, its change vs ${previousPeriodWords(period)}.</p>`;
