/**
 * How a store answers a report without reading every order it covers: it keeps totals per UTC month,
 * day, hour and quarter hour (each store keeps the grains it can), and a report's buckets are cut
 * into the largest whole periods that fit, read from those totals, plus the edges that are not whole
 * periods, read from the orders themselves. Every time zone's day begins on a quarter hour (+05:45
 * too), so with quarters only the report's own `from` and `to` leave edges.
 */

/** y: calendar year, m: month, d: day, h: hour, q: quarter hour; all UTC. */
export type Grain = 'y' | 'm' | 'd' | 'h' | 'q';

/** Largest first. */
export const GRAINS: readonly Grain[] = ['y', 'm', 'd', 'h', 'q'];

const FIXED: Readonly<Record<Exclude<Grain, 'm' | 'y'>, number>> = { d: 86_400_000, h: 3_600_000, q: 900_000 };

/** How many months a period of a grain counted in months lasts. */
const MONTHS = { m: 1, y: 12 } as const;

/** The start of the period of `grain` that holds `instant`. */
export const periodStart = (instant: number, grain: Grain): number => {
  if (grain !== 'm' && grain !== 'y') return instant - (((instant % FIXED[grain]) + FIXED[grain]) % FIXED[grain]);
  const date = new Date(instant);
  const month = date.getUTCMonth();
  return Date.UTC(date.getUTCFullYear(), month - (month % MONTHS[grain]), 1);
};

/** The start of the period of `grain` after the one that starts at `start`. */
export const nextPeriod = (start: number, grain: Grain): number => {
  if (grain !== 'm' && grain !== 'y') return start + FIXED[grain];
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + MONTHS[grain], 1);
};

export interface Piece {
  /** A whole period of this grain, or an `edge`: a range to read from the orders. */
  readonly grain: Grain | 'edge';
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  /** The index of the bucket it belongs to. */
  readonly bucket: number;
}

/**
 * Cuts each bucket `[start, end)` into whole periods of the `grains` a store keeps (largest first) and
 * edges, in order; adjacent edges of one bucket are joined. `usable` may refuse a period whose totals
 * the store cannot vouch for now (MongoDB's, while a rollup is behind): it is then cut smaller, or
 * read from the orders.
 */
export const piecesOf = (
  buckets: readonly { readonly start: number; readonly end: number }[],
  grains: readonly Grain[],
  usable: (grain: Grain, start: number, end: number) => boolean = () => true,
): Piece[] => {
  const kept = GRAINS.filter((grain) => grains.includes(grain));
  const finest = kept[kept.length - 1];
  const pieces: Piece[] = [];
  buckets.forEach(({ start, end }, bucket) => {
    let at = start;
    while (at < end) {
      const grain = kept.find((g) => periodStart(at, g) === at && nextPeriod(at, g) <= end && usable(g, at, nextPeriod(at, g)));
      if (grain !== undefined) {
        const next = nextPeriod(at, grain);
        pieces.push({ grain, start: at, end: next, bucket });
        at = next;
        continue;
      }
      // Up to the next boundary of the finest grain, or a whole finest period that could not be used.
      const edgeEnd = finest === undefined ? end : Math.min(end, nextPeriod(periodStart(at, finest), finest));
      const last = pieces[pieces.length - 1];
      if (last !== undefined && last.grain === 'edge' && last.bucket === bucket && last.end === at)
        pieces[pieces.length - 1] = { ...last, end: edgeEnd };
      else pieces.push({ grain: 'edge', start: at, end: edgeEnd, bucket });
      at = edgeEnd;
    }
  });
  return pieces;
};

/** The whole periods of one grain, in runs of consecutive periods: each run is one range to read. */
export const runsOf = (pieces: readonly Piece[], grain: Grain): { readonly first: number; readonly last: number }[] => {
  const starts = pieces
    .filter((piece) => piece.grain === grain)
    .map((piece) => piece.start)
    .sort((a, b) => a - b);
  const runs: { first: number; last: number }[] = [];
  for (const start of starts) {
    const run = runs[runs.length - 1];
    if (run !== undefined && nextPeriod(run.last, grain) === start) run.last = start;
    else runs.push({ first: start, last: start });
  }
  return runs;
};
