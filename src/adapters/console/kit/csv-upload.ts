import * as E from 'fp-ts/Either';
import { linesOf, type CsvRead, type CsvRefusal } from '../../../application/shared/csv-file';
import { UploadInterrupted, UPLOAD_SLICE_ROWS, type Rows } from '../../../application/shared/sliced-upload';
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailableError } from '../../../application/ports/storage-health';
import { redirect, show } from './answers';
import type { Access } from './feature';
import { count, counted } from './format';
import { html, type Fragment, type Html } from './html';
import { bare, csrfField, notice, page, problem, type Viewer } from './layout';
import type { ConsoleRouter } from './router';

/**
 * A page that takes a CSV file (spend, product costs): the upload's form for those who may upload,
 * what is stored under it, which every member reads, and what it does with the rows.
 */
export interface CsvUpload<A> {
  /** The page's path: the form posts to it, and a stored file redirects back to it. */
  readonly path: string;
  readonly title: string;
  /** Who may upload, and so sees the form. */
  readonly access: Access;
  readonly help: CsvHelp;
  /** What the page shows under the form, headings included; `query` is the GET's (empty after a refused file). */
  readonly shows: (viewer: Viewer, query: URLSearchParams) => Promise<Html>;
  readonly parse: (bytes: Uint8Array) => Promise<E.Either<CsvRefusal, CsvRead<A>>>;
  /** Stores every row read, in slices (UploadInterrupted when a slice fails); resolves how many were stored. */
  readonly store: (viewer: Viewer, rows: Rows<A>) => Promise<number>;
  /** What the page says once they are: "3 entries stored." */
  readonly stored: (count: number) => string;
}

/** Why an uploaded CSV was refused whole, and the status that says so. */
const refusalOf = (refusal: CsvRefusal): { readonly result: Fragment; readonly status: number } => {
  if (refusal._tag === 'CsvTooLarge')
    return { result: problem(`The file is larger than ${refusal.limitBytes / 1024 / 1024} MiB.`), status: 413 };
  const lines = linesOf(refusal.problems);
  return {
    result: html`<div class="error" role="alert">
      <p>
        Nothing was imported:
        ${
          refusal.stoppedEarly
            ? `the reading stopped at ${counted(lines, 'line')} that cannot be read; the rest of the file was not checked.`
            : `${counted(lines, 'line')} cannot be read.`
        }
      </p>
      <ul>
        ${refusal.problems.map((p) => html`<li>Line ${count(p.line)}${p.column === undefined ? '' : html`, column <code>${p.column}</code>`}: ${p.message}</li>`)}
      </ul>
    </div>`,
    status: 400,
  };
};

/** What a page says its CSV holds, above the upload's form. */
export interface CsvHelp {
  /** What a line is: "One line per product, currency and first day." */
  readonly lines: string;
  /** The columns as the documentation heads them. */
  readonly header: readonly string[];
  /** The other names taken for some columns. */
  readonly aliases: Readonly<Record<string, readonly string[]>>;
  /** The columns a file may leave out. */
  readonly optional?: readonly string[];
  /** How its values are written: units, days. */
  readonly values: Html;
}

/** "`a`, `b` or `c`". */
const either = (names: readonly string[], last: string): Html[] =>
  names.map((name, i) => html`${i === 0 ? '' : i === names.length - 1 ? ` ${last} ` : ', '}<code>${name}</code>`);

/** The upload's form, under what the file must hold, said as [CSV files] in docs/reports.md says it. */
const csvUploadForm = (viewer: Viewer, path: string, help: CsvHelp): Html => {
  const others = Object.entries(help.aliases).filter(([, names]) => names.length > 0);
  return html`<h2>Upload a CSV</h2>
    <ul class="csv-help">
      <li>
        ${help.lines} The first line names the columns, in any order and case: <code>${help.header.join(',')}</code>${
          help.optional === undefined ? '' : html`; ${either(help.optional, 'and')} may be left out`
        }.
      </li>
      ${others.length === 0 ? '' : html`<li>Also taken: ${others.map(([name, names], i) => html`${i === 0 ? '' : '; '}${either(names, 'or')} for <code>${name}</code>`)}.</li>`}
      <li>
        Separated by <code>,</code>, or by <code>;</code> with decimal commas (<code>12,50</code>), as a spreadsheet saves CSV where the
        comma is the decimal mark.
      </li>
      <li>${help.values}</li>
      <li>
        Every line is checked first, and nothing is stored when one is wrong; then the lines are stored ${count(UPLOAD_SLICE_ROWS)} at a
        time, and the page says so once all are.
      </li>
    </ul>
    <form class="stack" method="post" action="${path}" enctype="multipart/form-data">
      ${csrfField(viewer)}
      <div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,text/csv" required /></div>
      <div><button type="submit">Upload</button></div>
    </form>`;
};

/** The page, with what became of the last upload (or why a file was refused) at its top. */
const uploadPage = async <A>(upload: CsvUpload<A>, viewer: Viewer, result: Fragment, query = new URLSearchParams()): Promise<Html> =>
  page(
    viewer,
    upload.path,
    upload.title,
    html`${result} ${upload.access === 'member' || viewer.role === 'owner' ? csvUploadForm(viewer, upload.path, upload.help) : ''}
    ${await upload.shows(viewer, query)}`,
  );

/**
 * The page's GET, for every member, and the upload's POST, through the console's file route: a refused
 * file shows the page again with every line's problem and nothing stored; a file read whole is stored
 * slice by slice and, once every slice is, redirects to the page (Post/Redirect/Get), which says how
 * many rows were stored once. A store that fails part way answers 503 with how far it got: sending the
 * file again completes it.
 */
export const registerCsvUpload = <A>(r: ConsoleRouter, upload: CsvUpload<A>): void => {
  r.get(upload.path, 'member', async ({ viewer, query }) => show(await uploadPage(upload, viewer, r.flashes.take(viewer), query)));
  r.post(
    upload.path,
    upload.access,
    async ({ ctx, viewer, file }) => {
      const answer = async (result: Fragment, status: number) => show(await uploadPage(upload, viewer, result), status);
      if (file === undefined || file.length === 0) return answer(problem('Choose a CSV file to upload.'), 400);
      const read = await upload.parse(file);
      if (E.isLeft(read)) {
        const { result, status } = refusalOf(read.left);
        return answer(result, status);
      }
      let stored: number;
      try {
        stored = await upload.store(viewer, read.right.entries);
      } catch (err) {
        if (!(err instanceof UploadInterrupted && err.cause instanceof StorageUnavailableError)) throw err;
        ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
        const said = problem(
          `The data store stopped taking the file after its first ${counted(err.storedRows, 'line')} of ${count(err.rows)} were stored. ` +
            'Send the same file again in a moment: each line sets its value, so the lines already stored stay as they are.',
        );
        // The page lists what is stored, which a store that just failed may not read either.
        return answer(said, 503).catch((failed: unknown) => {
          if (failed instanceof StorageUnavailableError) return show(bare('Try again in a moment', said), 503);
          throw failed;
        });
      }
      const { ignoredColumns } = read.right;
      const ignored = ignoredColumns.length === 0 ? '' : ` Columns not read: ${ignoredColumns.join(', ')}.`;
      r.flashes.put(viewer, notice(`${upload.stored(stored)}${ignored}`));
      return redirect(upload.path);
    },
    'file',
  );
};
