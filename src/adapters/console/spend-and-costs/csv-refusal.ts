import type { CsvRefusal } from '../../../application/shared/csv-file';
import { count, counted } from '../kit/format';
import { html, type Fragment } from '../kit/html';
import { problem } from '../kit/layout';

/** Why an uploaded CSV (spend, product costs) was refused whole, and the status that says so. */
export const csvRefusal = (refusal: CsvRefusal): { readonly result: Fragment; readonly status: number } =>
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
