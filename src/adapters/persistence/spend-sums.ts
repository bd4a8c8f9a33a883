import type { SpendSum, SpendSumQuery } from '../../application/ports/spend-repository';
import type { SpendEntry } from '../../domain/spend';

/** Spend entries summed by day (when the query asks), by the query's dimensions and by currency, in the order first seen. */
export const sumSpend = (entries: Iterable<SpendEntry>, query: Pick<SpendSumQuery, 'by' | 'byDate'>): SpendSum[] => {
  const sums = new Map<string, SpendSum & { amountCents: number }>();
  for (const entry of entries) {
    const key = Object.fromEntries(query.by.map((dimension) => [dimension, entry[dimension]]));
    const id = JSON.stringify([query.byDate ? entry.date : '', query.by.map((dimension) => entry[dimension]), entry.currency]);
    const sum = sums.get(id);
    if (sum === undefined)
      sums.set(id, { ...(query.byDate ? { date: entry.date } : {}), key, currency: entry.currency, amountCents: entry.amountCents });
    else sum.amountCents += entry.amountCents;
  }
  return [...sums.values()];
};
