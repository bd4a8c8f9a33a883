import { html, type Html } from './html';
import type { Period } from './period';

/** How the previous period is named: as long as the chosen one, counted in the dashboard's days. */
export const previousPeriodWords = (period: Period): string => {
  const days = Math.round((Date.parse(`${period.lastDay}T00:00:00Z`) - Date.parse(`${period.firstDay}T00:00:00Z`)) / 86_400_000) + 1;
  return days === 1 ? 'previous day' : `previous ${days} days`;
};

/**
 * A figure's change against the previous period (DECISIONS D22), as a person reads it: a sign and an
 * arrow in the text, so that it does not rest on colour; nothing when the previous figure is 0 or
 * absent, where a percentage means nothing. Rates (the approval rate) change in percentage points.
 */
export const changeLine = (
  now: number | null | undefined,
  before: number | null | undefined,
  against: string,
  kind: 'relative' | 'points' = 'relative',
): Html => {
  if (now === null || now === undefined || before === null || before === undefined || before === 0) return html``;
  const change = kind === 'points' ? (now - before) * 100 : ((now - before) / Math.abs(before)) * 100;
  const shown = Math.abs(change).toFixed(1);
  const unit = kind === 'points' ? ' points' : '%';
  const words = shown === '0.0' ? `No change vs ${against}` : `${change > 0 ? '▲ +' : '▼ −'}${shown}${unit} vs ${against}`;
  return html`<dd class="change" data-change="${change.toFixed(1)}">${words}</dd>`;
};
