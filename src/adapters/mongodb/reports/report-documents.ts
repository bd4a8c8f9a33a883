import * as t from 'io-ts';
import type { ReportDimension } from '../../../domain/attribution';
import { REPORT_DIMENSIONS } from '../../../domain/attribution';
import { addStatusTotals, statusTotalsOf, ZERO_STATUS_TOTALS, type StatusTotals } from '../../../domain/report';
import { periodStart, type Grain } from '../../persistence/report-pieces';
import { bsonDate } from '../bson-codecs';
import type { ReportFacts } from '../../persistence/report-cells';

/**
 * Report cells on MongoDB (`report_cells`): the totals of one projection, grain, period, model, test
 * flag, currency and key, recomputed from the orders of a day by mongo-report-rollup.ts. The same three
 * projections as SQLite's (report-schema.ts): `t` (no key) by quarter, hour, day and month; `c`
 * (source, medium, campaign) and `k` (every dimension) by day and month.
 */
export type ProjectionName = 't' | 'c' | 'k';

export interface MongoProjection {
  readonly name: ProjectionName;
  readonly grains: readonly Grain[];
  readonly dimensions: readonly ReportDimension[];
  readonly modelled: boolean;
}

export const MONGO_PROJECTIONS: readonly MongoProjection[] = [
  { name: 't', grains: ['m', 'd', 'h', 'q'], dimensions: [], modelled: false },
  { name: 'c', grains: ['m', 'd'], dimensions: ['utmSource', 'utmMedium', 'utmCampaign'], modelled: true },
  { name: 'k', grains: ['m', 'd'], dimensions: REPORT_DIMENSIONS, modelled: true },
];

export interface CellDocument extends StatusTotals {
  readonly _id: string;
  readonly dashboardId: string;
  readonly proj: ProjectionName;
  readonly grain: Grain;
  readonly start: number;
  /** The UTC day the cell was computed from (its month for a month cell): what a recomputation replaces. */
  readonly day: number;
  readonly model?: 'l' | 'f';
  readonly isTest: boolean;
  readonly currency: string;
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  /** The recomputation that wrote it: what it left of an earlier one is deleted after its own cells are in. */
  readonly pass?: string;
}

const count = t.number;
export const cellDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    proj: t.keyof({ t: null, c: null, k: null }),
    grain: t.keyof({ m: null, d: null, h: null, q: null }),
    start: t.number,
    day: t.number,
    isTest: t.boolean,
    currency: t.string,
    key: t.record(t.string, t.string),
    pending: count,
    paid: count,
    refused: count,
    refunded: count,
    chargedback: count,
    grossCents: count,
    paidGrossCents: count,
    paidNetCents: count,
    refundedCents: count,
    chargedbackCents: count,
  }),
  t.partial({ model: t.keyof({ l: null, f: null }) }),
]);

const valueOf = (facts: ReportFacts, model: 'l' | 'f', dimension: ReportDimension): string => {
  if (dimension === 'platform') return facts.platform;
  if (dimension === 'paymentMethod') return facts.paymentMethod;
  return (model === 'f' ? facts.attribution.first : facts.attribution.last)[dimension];
};

/** The cells of every projection at `grains` that the given orders (of one period) add up to. */
export const cellsOfOrders = (
  dashboardId: string,
  day: number,
  orders: readonly ReportFacts[],
  grainsOf: (projection: MongoProjection) => readonly Grain[],
): CellDocument[] => {
  const cells = new Map<string, CellDocument>();
  for (const facts of orders) {
    const totals = statusTotalsOf(facts);
    for (const projection of MONGO_PROJECTIONS) {
      for (const grain of grainsOf(projection)) {
        for (const model of projection.modelled ? (['l', 'f'] as const) : [undefined]) {
          const start = periodStart(facts.createdAt, grain);
          const key = Object.fromEntries(projection.dimensions.map((d) => [d, valueOf(facts, model ?? 'l', d)]));
          addCell(cells, {
            dashboardId,
            proj: projection.name,
            grain,
            start,
            day,
            ...(model === undefined ? {} : { model }),
            isTest: facts.isTest,
            currency: facts.currency,
            key,
            totals,
          });
        }
      }
    }
  }
  return [...cells.values()];
};

/** Adds a cell's totals into `cells`, under its identity. */
export const addCell = (
  cells: Map<string, CellDocument>,
  cell: Omit<CellDocument, '_id' | keyof StatusTotals> & { readonly totals: StatusTotals },
): void => {
  const { totals, ...identity } = cell;
  const _id = JSON.stringify([
    identity.dashboardId,
    identity.proj,
    identity.grain,
    identity.start,
    identity.model ?? '',
    identity.isTest,
    identity.currency,
    identity.key,
  ]);
  const existing = cells.get(_id);
  cells.set(_id, { ...identity, _id, ...addStatusTotals(existing ?? ZERO_STATUS_TOTALS, totals) });
};

/**
 * The state of one month's cells (in `report_state`): `staleSince` while they are not the sum of its
 * days' (readers then read its days), `gen` counting the recomputations of its days, so that a month
 * summed while one ran is not taken for current.
 */
export const monthStateCodec = t.intersection([
  t.type({ _id: t.string, dashboardId: t.string, month: t.number, gen: t.number }),
  t.partial({ staleSince: bsonDate }),
]);
export type MonthState = t.TypeOf<typeof monthStateCodec>;

export const monthStateId = (dashboardId: string, month: number): string => `month ${dashboardId} ${month}`;
