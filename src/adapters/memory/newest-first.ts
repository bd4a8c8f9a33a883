/** Descending `createdAt`, then descending `id`: the order of the orders, links and delivery logs. */
export const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
