import { html, type Fragment, type Html } from './html';
import type { Column } from './table';

/**
 * What the logs of what the service sends out (webhook deliveries, conversions) show of their tries:
 * a column listing each attempt, and the far side's reply to one.
 */

/** The attempts of a row, one `line` each, oldest first. */
export const attemptsColumn = <A>(line: (attempt: A) => Html): Column<{ readonly attempts: readonly A[] }> => ({
  header: 'Attempts',
  cell: (row) =>
    html`<ul>
      ${row.attempts.map(line)}
    </ul>`,
});

/**
 * The reply to an attempt, folded under `summary`: whatever the far side sent, escaped as any text,
 * its long lines wrapped (the stylesheet's `pre`), with `after` below it.
 */
export const replyDetails = (summary: string, reply: string | undefined, after: Fragment = ''): Fragment =>
  reply === undefined
    ? ''
    : html`<details class="body reply">
        <summary>${summary}</summary>
        <pre><code>${reply}</code></pre>
        ${after}
      </details>`;
