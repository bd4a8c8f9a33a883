import * as E from 'fp-ts/Either';
import type { CsvRefusal } from '../../../application/shared/csv-file';
import { redirect, show } from './answers';
import type { Access } from './feature';
import { count, counted } from './format';
import { html, type Fragment, type Html } from './html';
import { csrfField, notice, problem, type Viewer } from './layout';
import type { ConsoleRouter } from './router';

/** A page that takes a CSV file whole or not at all (spend, product costs), and what it does with the rows. */
export interface CsvUpload<A> {
  /** The page's path: the form posts to it, and a stored file redirects back to it. */
  readonly path: string;
  /** Who may upload; the page decides who sees the form. */
  readonly access: Access;
  readonly parse: (bytes: Uint8Array) => Promise<E.Either<CsvRefusal, readonly A[]>>;
  /** Stores every row read; resolves how many were stored. */
  readonly store: (viewer: Viewer, rows: readonly A[]) => Promise<number>;
  /** What the page says once they are: "3 entries stored." */
  readonly stored: (count: number) => string;
  /** The page, with why the file was refused at its top. */
  readonly page: (viewer: Viewer, refusal: Fragment) => Promise<Html>;
}

/** Why an uploaded CSV was refused whole, and the status that says so. */
const refusalOf = (refusal: CsvRefusal): { readonly result: Fragment; readonly status: number } =>
  refusal._tag === 'CsvTooLarge'
    ? { result: problem(`The file is larger than ${refusal.limitBytes / 1024 / 1024} MiB.`), status: 413 }
    : {
        result: html`<div class="error" role="alert">
          <p>
            Nothing was imported:
            ${
              refusal.stoppedEarly
                ? `the reading stopped at ${counted(refusal.problems.length, 'line')} that cannot be read; the rest of the file was not checked.`
                : `${counted(refusal.problems.length, 'line')} cannot be read.`
            }
          </p>
          <ul>
            ${refusal.problems.map((p) => html`<li>Line ${count(p.line)}: ${p.message}</li>`)}
          </ul>
        </div>`,
        status: 400,
      };

/** The upload's form, under what the file must hold (`explanation`). */
export const csvUploadForm = (viewer: Viewer, path: string, explanation: Html): Html =>
  html`<h2>Upload a CSV</h2>
    <p>${explanation}</p>
    <form class="stack" method="post" action="${path}" enctype="multipart/form-data">
      ${csrfField(viewer)}
      <div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,text/csv" required /></div>
      <div><button type="submit">Upload</button></div>
    </form>`;

/**
 * The upload's POST route, through the console's file route: a refused file shows the page again with
 * every line's problem and nothing stored; a stored one redirects to the page (Post/Redirect/Get),
 * which says how many rows were stored once.
 */
export const registerCsvUpload = <A>(r: ConsoleRouter, upload: CsvUpload<A>): void =>
  r.post(
    upload.path,
    upload.access,
    async ({ viewer, file }) => {
      const answer = async (result: Fragment, status: number) => show(await upload.page(viewer, result), status);
      if (file === undefined || file.length === 0) return answer(problem('Choose a CSV file to upload.'), 400);
      const read = await upload.parse(file);
      if (E.isLeft(read)) {
        const { result, status } = refusalOf(read.left);
        return answer(result, status);
      }
      r.flashes.put(viewer, notice(upload.stored(await upload.store(viewer, read.right))));
      return redirect(upload.path);
    },
    'file',
  );
