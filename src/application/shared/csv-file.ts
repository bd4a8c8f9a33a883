import * as E from 'fp-ts/Either';
import { MAX_CENTS } from '../../domain/money';
import { EventLoopSlices } from './event-loop-slices';
import type { Rows } from './sliced-upload';
import { utf8LineFrom, utf8LinesAt, type LineAt } from './utf8-lines';

/**
 * The largest CSV read, from the console and the CLI alike (spend, product costs): 2 MiB, the
 * console's upload limit (about 30,000 spend lines, or 100,000 short cost lines). Larger files are split.
 */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;

/** The reading stops at this many bad lines: a file of bad lines costs no more than this to answer. */
export const MAX_CSV_PROBLEMS = 100;

/**
 * How long the reading holds the event loop at a time. Another request waits for a stretch at each of
 * its own steps (its body, its writes, their sync), several per order: shorter than the batches' 5 ms,
 * since a 2 MiB file takes hundreds of stretches, one after another.
 */
const CSV_SLICE_MS = 2;

/** The most columns a header may name: a line is cut into no more fields than its columns need. */
export const MAX_CSV_COLUMNS = 100;

/**
 * How a file writes its fields, as its header line shows: separated by `,` (amounts with a decimal
 * point), or by `;`, as spreadsheets save CSV where the comma is the decimal mark (amounts `12,50` or
 * `12.50`).
 */
export interface CsvFormat {
  readonly separator: ',' | ';';
}

/** One column a CSV may hold: how its text becomes a value, and what it expects, for the error that says so. */
export interface CsvColumn<V> {
  /** Other names the header may give it, beside its own (compared as `columnKey` makes them). */
  readonly aliases: readonly string[];
  /** A column the header may leave out: its value is then the empty text. */
  readonly optional: boolean;
  /** The value of a field (trimmed), or undefined when it is not one. */
  readonly read: (text: string, format: CsvFormat) => V | undefined;
  /** What a field must be, in a few words: "a day written YYYY-MM-DD". */
  readonly expected: string;
  /** A field as the file should write it: "2026-03-01". */
  readonly example: (format: CsvFormat) => string;
}

type Columns = Readonly<Record<string, CsvColumn<unknown>>>;

/** One line's values, by column. */
export type CsvValues<C extends Columns> = { readonly [K in keyof C]: C[K] extends CsvColumn<infer V> ? V : never };

export interface CsvShape<C extends Columns, A> {
  /** The columns by their names, in the order the documented header gives them. */
  readonly columns: C;
  readonly entryOf: (values: CsvValues<C>) => A;
}

export interface CsvProblem {
  /** 1-based. */
  readonly line: number;
  /** The column at fault, by its own name; absent when the whole line is. */
  readonly column?: string;
  readonly message: string;
}

/** A file read whole: its entries, and the header's columns that no column of the shape takes (their fields are not read). */
export interface CsvRead<A> {
  /** Read again from the file's bytes a slice at a time (FileRows): the bytes must stay as they are until then. */
  readonly entries: Rows<A>;
  readonly ignoredColumns: readonly string[];
}

/** Why a CSV imports nothing. */
export type CsvRefusal =
  | { readonly _tag: 'CsvTooLarge'; readonly limitBytes: number }
  | {
      readonly _tag: 'CsvInvalid';
      /** The problems of the bad lines in file order (a line may have several), lines at most MAX_CSV_PROBLEMS. */
      readonly problems: readonly CsvProblem[];
      /** True when the reading stopped at MAX_CSV_PROBLEMS bad lines, leaving the rest of the file unread. */
      readonly stoppedEarly: boolean;
    };

/** How many lines the problems are about. */
export const linesOf = (problems: readonly CsvProblem[]): number => new Set(problems.map((p) => p.line)).size;

/**
 * A header name as it is compared: lower case, without accents, spaces, underscores or other signs, so
 * that `Unit cost`, `unit_cost` and `UNIT-COST` are one name, and `Custo unitário` is `custounitario`.
 */
export const columnKey = (name: string): string =>
  name
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * The fields of one line (RFC 4180: fields in double quotes with `""` for a quote), cut at `separator`;
 * the first `limit` only, the rest of the line left unread.
 */
const fieldsOf = (line: string, separator: string, limit: number): string[] | undefined => {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (fields.length === limit) return fields;
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
      if (line[at] !== separator) return undefined;
      at++;
    } else {
      const next = line.indexOf(separator, at);
      fields.push(next === -1 ? line.slice(at) : line.slice(at, next));
      if (next === -1) return fields;
      at = next + 1;
    }
  }
};

/** `;` when the header line holds more semicolons than commas (header names hold neither). */
const formatOf = (header: string): CsvFormat => ({
  separator: header.split(';').length > header.split(',').length ? ';' : ',',
});

/** `12.34` → 1234, `5` → 500, `0.5` → 50: decimal text to cents with string arithmetic, never a float. */
export const centsOf = (amount: string): number | undefined => {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount);
  if (match === null) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : undefined;
};

/** An amount column: decimal text in units of the currency, with a decimal comma too in a `;` file. */
export const amountColumn = (aliases: readonly string[]): CsvColumn<number> => ({
  aliases,
  optional: false,
  read: (text, { separator }) => centsOf(separator === ';' ? text.replace(/^(\d+),(\d{1,2})$/, '$1.$2') : text),
  expected: `an amount in units of the currency, with at most 2 decimals and no thousands separator, up to ${MAX_CENTS / 100}`,
  example: ({ separator }) => (separator === ';' ? '12,50' : '12.50'),
});

/** A column of free text: 1 to `max` code points, or also empty when `optional`. */
export const textColumn = (example: string, max: number, aliases: readonly string[] = [], optional = false): CsvColumn<string> => ({
  aliases,
  optional,
  // More than 2 × max UTF-16 units is more than max code points: never spread.
  read: (text) => ((text.length >= 1 || optional) && text.length <= 2 * max && [...text].length <= max ? text : undefined),
  expected: optional ? `text of at most ${max} characters, or nothing` : `text of 1 to ${max} characters`,
  example: () => example,
});

/** A column read as it is, when `valid` says it may be. */
export const checkedColumn = (
  valid: (text: string) => boolean,
  expected: string,
  example: string,
  aliases: readonly string[] = [],
): CsvColumn<string> => ({ aliases, optional: false, read: (text) => (valid(text) ? text : undefined), expected, example: () => example });

const NOT_UTF8 = 'is not valid UTF-8: save the file as UTF-8 (CSV UTF-8 in a spreadsheet)';

/** At most 40 characters of a field, for a message about it. */
const cut = (text: string): string => {
  // Never more than 80 UTF-16 units spread, however long the field.
  const points = [...text.slice(0, 81)];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : text;
};

const quoted = (text: string): string => JSON.stringify(cut(text));

/** "a, b and c". */
const listed = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Where each column of the shape is in the file, or what is wrong with the header. */
type HeaderMap = { readonly at: ReadonlyMap<string, number>; readonly ignored: readonly string[] } | string;

const headerOf = <C extends Columns>(names: readonly string[], columns: C, format: CsvFormat): HeaderMap => {
  const byKey = new Map<string, string>();
  for (const [name, column] of Object.entries(columns)) for (const alias of [name, ...column.aliases]) byKey.set(columnKey(alias), name);
  const at = new Map<string, number>();
  const ignored: string[] = [];
  for (const [index, raw] of names.entries()) {
    const given = raw.trim();
    // A spreadsheet saves the empty cells right of a table as empty names: nothing to read there.
    if (given === '') continue;
    const name = byKey.get(columnKey(given));
    if (name === undefined) ignored.push(cut(given));
    else if (at.has(name)) return `the header names ${name} twice (${quoted(names[at.get(name)!].trim())} and ${quoted(given)})`;
    else at.set(name, index);
  }
  const missing = Object.entries(columns)
    .filter(([name, column]) => !column.optional && !at.has(name))
    .map(([name]) => name);
  if (missing.length === 0) return { at, ignored };
  const unknown =
    ignored.length === 0 ? '' : `; ${listed(ignored.map(quoted))} ${ignored.length === 1 ? 'is not a column' : 'are not columns'}`;
  return `the header lacks ${listed(missing)}${unknown}. ${expectedHeader(columns, format)}`;
};

/** The header the file needs and a line under it, in the file's own separator. */
const expectedHeader = (columns: Columns, format: CsvFormat): string => {
  const all = Object.entries(columns);
  return `The first line names the columns (in any order and case): ${all.map(([name]) => name).join(format.separator)}, then one line each, such as ${all
    .map(([, column]) => column.example(format))
    .join(format.separator)}`;
};

/**
 * Reads a CSV from its bytes: a header line that names the shape's columns (by name or alias, in any
 * order and case; a UTF-8 BOM before it is skipped; its separator, `,` or `;`, is the file's), then one
 * entry per line (empty lines skipped). A file over CSV_MAX_BYTES is refused unread; a line that is not
 * UTF-8, or a field that is not what its column expects, is a problem naming the line and the column,
 * and the reading stops at MAX_CSV_PROBLEMS bad lines; any problem means nothing is imported. The
 * lines are read in stretches of the event loop, so a large file never holds other requests up for long.
 */
export const readCsv = async <C extends Columns, A>(
  bytes: Uint8Array,
  shape: CsvShape<C, A>,
): Promise<E.Either<CsvRefusal, CsvRead<A>>> => {
  if (bytes.length > CSV_MAX_BYTES) return E.left({ _tag: 'CsvTooLarge', limitBytes: CSV_MAX_BYTES });
  const slices = new EventLoopSlices(CSV_SLICE_MS);
  const starts: number[] = [];
  const problems: CsvProblem[] = [];
  const refused = (message: string) => E.left({ _tag: 'CsvInvalid' as const, problems: [{ line: 1, message }], stoppedEarly: false });
  const lines = utf8LinesAt(bytes);
  // A file has a first line, if an empty one.
  const first = (lines.next().value as LineAt).text;
  if (first === undefined) return refused(NOT_UTF8);
  const text = first.replace(/^\uFEFF/, '');
  const format = formatOf(text);
  if (text.trim() === '') return refused(`the first line is empty. ${expectedHeader(shape.columns, format)}`);
  const names = fieldsOf(text, format.separator, MAX_CSV_COLUMNS + 1);
  if (names !== undefined && names.length > MAX_CSV_COLUMNS) return refused(`the header has more than ${MAX_CSV_COLUMNS} columns`);
  const header =
    names === undefined
      ? `the first line is not a header. ${expectedHeader(shape.columns, format)}`
      : headerOf(names, shape.columns, format);
  if (typeof header === 'string') return refused(header);
  let badLines = 0;
  let line = 1;
  for (const { text: raw, start } of lines) {
    line++;
    if (raw?.trim() === '') continue;
    const read = lineOf(raw, line, header.at, format, shape);
    if (E.isLeft(read)) {
      problems.push(...read.left);
      if (++badLines >= MAX_CSV_PROBLEMS) return E.left({ _tag: 'CsvInvalid', problems, stoppedEarly: true });
    } else if (badLines === 0) starts.push(start);
    await slices.pause();
  }
  if (badLines > 0) return E.left({ _tag: 'CsvInvalid', problems, stoppedEarly: false });
  const entryAt = (start: number): A => {
    const read = lineOf(utf8LineFrom(bytes, start), 0, header.at, format, shape);
    if (E.isLeft(read)) throw new Error('a line of a checked file no longer reads: were its bytes changed?');
    return read.right;
  };
  return E.right({ entries: new FileRows(starts, entryAt), ignoredColumns: header.ignored });
};

/**
 * The entries of a checked file, read again from its bytes when a slice of them is asked for. Held
 * as objects, the 80,000 entries of a 2 MiB file lived as long as they took to store (seconds, slice
 * after slice) and the garbage collector copied them at each pass: its pauses held the event loop
 * 15-19 ms at a time during an upload. Where each entry's line starts is all that is kept.
 */
class FileRows<A> implements Rows<A> {
  constructor(
    private readonly starts: readonly number[],
    private readonly entryAt: (start: number) => A,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  slice(start?: number, end?: number): A[] {
    return this.starts.slice(start, end).map(this.entryAt);
  }
}

/** A line's entry, or its problems. */
const lineOf = <C extends Columns, A>(
  raw: string | undefined,
  line: number,
  at: ReadonlyMap<string, number>,
  format: CsvFormat,
  shape: CsvShape<C, A>,
): E.Either<CsvProblem[], A> => {
  if (raw === undefined) return E.left([{ line, message: NOT_UTF8 }]);
  const needed = Math.max(...at.values()) + 1;
  const fields = fieldsOf(raw, format.separator, needed);
  if (fields === undefined) return E.left([{ line, message: 'has a quote (") that is not closed, or text after a closing quote' }]);
  if (fields.length < needed)
    return E.left([{ line, message: `has ${fields.length} fields where the header has ${needed}, separated by ${format.separator}` }]);
  const values: Record<string, unknown> = {};
  const wrong: CsvProblem[] = [];
  for (const [name, column] of Object.entries(shape.columns)) {
    const index = at.get(name);
    const text = index === undefined ? '' : fields[index].trim();
    const value = column.read(text, format);
    if (value === undefined) {
      const found = text === '' ? 'nothing' : quoted(text);
      wrong.push({ line, column: name, message: `expected ${column.expected}, such as ${column.example(format)}; found ${found}` });
    } else values[name] = value;
  }
  return wrong.length > 0 ? E.left(wrong) : E.right(shape.entryOf(values as CsvValues<C>));
};
