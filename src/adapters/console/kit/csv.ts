/** A cell that a spreadsheet would run as a formula, or read as one after a separator: OWASP's CSV injection list. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** What makes a cell need quotes: the separators of `,` and `;` locales, the quote, a line break. */
const NEEDS_QUOTES = /[",;\n\r]/;

/**
 * A text cell (a campaign, a source, a currency): one that starts like a formula gets a leading `'`,
 * which spreadsheets show and never evaluate, and any cell holding a separator of either kind, a quote
 * or a line break is quoted (RFC 4180), so that `x;=1+1` stays one cell where `;` separates columns.
 */
export const csvText = (text: string): string => {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * A number the service computed (a count, cents, a ratio), written as it is: a `-` there is a sign
 * that the sheet must keep as a number, and no caller's text reaches it. Empty when there is none.
 */
export const csvNumber = (value: number | null): string => (value === null ? '' : String(value));

/** Lines of cells as CSV: comma-separated, CRLF after every line. */
export const csvDocument = (lines: readonly (readonly string[])[]): string => lines.map((cells) => `${cells.join(',')}\r\n`).join('');
