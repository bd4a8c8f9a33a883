import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the two baselines answer, taken from the service itself by the harness (so that the bytes on
 * the wire have the same shape and size): the page of 20 orders of `GET /api/v1/orders`, one whole
 * order (`GET` and `PATCH` of `/api/v1/orders/{externalId}`), the script of `/tracker.js` and the
 * destination of a short link. Read once at start from the folder named by BENCH_FIXTURES.
 */
export interface Fixtures {
  readonly page: Buffer;
  readonly order: Buffer;
  readonly tracker: Buffer;
  readonly redirectTo: string;
}

export const FIXTURE_FILES = { page: 'page.json', order: 'order.json', tracker: 'tracker.js', redirectTo: 'redirect.txt' } as const;

export const loadFixtures = (): Fixtures => {
  const dir = process.env['BENCH_FIXTURES'];
  if (dir === undefined) throw new Error('BENCH_FIXTURES is not set');
  const read = (name: string) => readFileSync(join(dir, name));
  return {
    page: read(FIXTURE_FILES.page),
    order: read(FIXTURE_FILES.order),
    tracker: read(FIXTURE_FILES.tracker),
    redirectTo: read(FIXTURE_FILES.redirectTo).toString('utf8').trim(),
  };
};

/** The answer to a creation, as small as the service's: `{ order: { id, externalId, status, isTest } }`. */
export const created = (id: number, body: unknown): { location: string; json: string } => {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const externalId = typeof fields['externalId'] === 'string' ? fields['externalId'] : '';
  const order = { id: `ord_${String(id).padStart(22, '0')}`, externalId, status: fields['status'], isTest: fields['isTest'] };
  return { location: `/api/v1/orders/${encodeURIComponent(externalId)}`, json: JSON.stringify({ order }) };
};

export const port = (): number => {
  const value = Number(process.env['PORT']);
  if (!Number.isInteger(value) || value <= 0) throw new Error('PORT is not set');
  return value;
};
