import Busboy from 'busboy';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { SPEND_CSV_MAX_BYTES } from '../../../application/spend/spend-csv';

export const FORM_LIMIT_BYTES = 64 * 1024;
/** The console's one upload is a spend CSV: its file is at most what the CSV reader reads. */
export const UPLOAD_LIMIT_BYTES = SPEND_CSV_MAX_BYTES;

export class FormTooLarge extends Error {}
export class FormRefused extends Error {}

/** The fields of a form, each as often as it was sent (checkboxes): `get` the first, `getAll` every one. */
export type FormFields = URLSearchParams;

/** An `application/x-www-form-urlencoded` body, at most 64 KiB, strictly UTF-8. */
export const readForm = async (ctx: Context): Promise<FormFields> => {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new FormRefused('a form is sent as application/x-www-form-urlencoded');
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: FORM_LIMIT_BYTES, encoding: 'utf-8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new FormTooLarge('the form is larger than 64 KiB');
    throw new FormRefused('the form could not be read');
  }
  return new URLSearchParams(text);
};

/**
 * A `multipart/form-data` body: its text fields and one file's bytes (at most UPLOAD_LIMIT_BYTES), which
 * its reader decodes. A body cut off is refused: a form that ends inside its file (busboy then fails
 * the file's stream too, which must be listened to), or a request that stops arriving (the client went
 * away: the parser would otherwise wait forever for the rest, and the request hold its turn).
 */
export const readUpload = (ctx: Context, fileField: string): Promise<{ fields: FormFields; file: Uint8Array | undefined }> =>
  new Promise((resolve, reject) => {
    if (!ctx.is('multipart/form-data')) {
      reject(new FormRefused('an upload is sent as multipart/form-data'));
      return;
    }
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: ctx.req.headers,
        limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20, fieldSize: FORM_LIMIT_BYTES },
      });
    } catch {
      reject(new FormRefused('the upload could not be read'));
      return;
    }
    const fields = new URLSearchParams();
    const chunks: Buffer[] = [];
    let tooLarge = false;
    let sawFile = false;
    parser.on('field', (name, value) => fields.append(name, value));
    parser.on('file', (name, stream) => {
      stream.on('error', () => undefined);
      if (name !== fileField) {
        stream.resume();
        return;
      }
      sawFile = true;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
    });
    parser.on('error', () => reject(new FormRefused('the upload could not be read')));
    parser.on('close', () => {
      if (tooLarge) reject(new FormTooLarge('the file is larger than 2 MiB'));
      else resolve({ fields, file: sawFile ? Buffer.concat(chunks) : undefined });
    });
    ctx.req.once('close', () => {
      if (ctx.req.complete) return;
      parser.destroy();
      reject(new FormRefused('the upload stopped arriving'));
    });
    ctx.req.pipe(parser);
  });
