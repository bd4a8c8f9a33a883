import * as E from 'fp-ts/Either';
import { MAX_CENTS } from '../../domain/money';
import { EventLoopSlices } from './event-loop-slices';
import { utf8Lines } from './utf8-lines';

/**
 * The largest CSV read, from the console and the CLI alike (spend, product costs): 2 MiB, the
 * console's upload limit (about 30,000 lines of 60-70 bytes). Larger files are split.
 */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;

/** The reading stops at this many bad lines: a file of bad lines costs no more than this to answer. */
export const MAX_CSV_PROBLEMS = 100;

export interface CsvProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** Why a CSV imports nothing. */
export type CsvRefusal =
  | { readonly _tag: 'CsvTooLarge'; readonly limitBytes: number }
  | {
      readonly _tag: 'CsvInvalid';
      /** The bad lines in file order, at most MAX_CSV_PROBLEMS. */
      readonly problems: readonly CsvProblem[];
      /** True when the reading stopped at MAX_CSV_PROBLEMS, leaving the rest of the file unread. */
      readonly stoppedEarly: boolean;
    };

/** The fields of one CSV line (RFC 4180: commas, fields in double quotes with `""` for a quote). */
const fieldsOf = (line: string): string[] | undefined => {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const quote = line.indexOf('"', at);
        if (quote === -1) return undefined;
        value += line.slice(at, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          at = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line[at] !== ',') return undefined;
      at++;
    } else {
      const comma = line.indexOf(',', at);
      fields.push(comma === -1 ? line.slice(at) : line.slice(at, comma));
      if (comma === -1) return fields;
      at = comma + 1;
    }
  }
};

/** `12.34` → 1234, `5` → 500, `0.5` → 50: decimal text to cents with string arithmetic, never a float. */
export const centsOf = (amount: string): number | undefined => {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount);
  if (match === null) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : undefined;
};

/** What the amount column of a CSV must be, said once for every CSV with money in it. */
export const AMOUNT_RULE = `must be a decimal number of currency units with at most 2 decimals, up to ${MAX_CENTS / 100}`;

const NOT_UTF8 = 'is not valid UTF-8: save the file as UTF-8 (CSV UTF-8 in a spreadsheet)';

export interface CsvShape<A> {
  /** The first line, lower case, compared without spaces around each name. */
  readonly header: readonly string[];
  /** One line's entry from its fields (as many as the header names, trimmed), or what is wrong with it. */
  readonly entryOf: (fields: readonly string[]) => A | string;
}

/**
 * Reads a CSV from its bytes: the header, then one entry per line (empty lines skipped). A file over
 * CSV_MAX_BYTES is refused unread; a line that is not UTF-8 or cannot be imported is a problem with
 * its line number, and the reading stops at MAX_CSV_PROBLEMS of them; any problem means nothing is
 * imported. The lines are read in stretches of the event loop (DECISIONS D23), so a large file never
 * holds other requests up for long.
 */
export const readCsv = async <A>(bytes: Uint8Array, shape: CsvShape<A>): Promise<E.Either<CsvRefusal, readonly A[]>> => {
  if (bytes.length > CSV_MAX_BYTES) return E.left({ _tag: 'CsvTooLarge', limitBytes: CSV_MAX_BYTES });
  const slices = new EventLoopSlices();
  const entries: A[] = [];
  const problems: CsvProblem[] = [];
  const invalid = (stoppedEarly: boolean) => E.left({ _tag: 'CsvInvalid' as const, problems, stoppedEarly });
  const header = shape.header.join(',');
  let line = 0;
  for (const raw of utf8Lines(bytes)) {
    line++;
    if (line === 1) {
      if (raw === undefined) return E.left({ _tag: 'CsvInvalid', problems: [{ line, message: NOT_UTF8 }], stoppedEarly: false });
      const names = fieldsOf(raw.replace(/^\uFEFF/, ''));
      if (names === undefined || names.map((h) => h.trim().toLowerCase()).join(',') !== header)
        return E.left({
          _tag: 'CsvInvalid',
          problems: [{ line: 1, message: `the first line must be the header ${header}` }],
          stoppedEarly: false,
        });
      continue;
    }
    if (raw?.trim() === '') continue;
    const fields = raw === undefined ? undefined : fieldsOf(raw);
    const entry =
      raw === undefined
        ? NOT_UTF8
        : fields === undefined || fields.length !== shape.header.length
          ? `must have ${shape.header.length} fields (${header})`
          : shape.entryOf(fields.map((field) => field.trim()));
    if (typeof entry === 'string') {
      problems.push({ line, message: entry });
      if (problems.length >= MAX_CSV_PROBLEMS) return invalid(true);
    } else if (problems.length === 0) entries.push(entry);
    await slices.pause();
  }
  return problems.length > 0 ? invalid(false) : E.right(entries);
};
