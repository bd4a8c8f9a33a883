/** Page `page` (from 1) of `pageSize` items of `all`, each a copy, so that no caller holds the store's own. */
export const pageOf = <A>(all: readonly A[], query: { readonly page: number; readonly pageSize: number }): A[] => {
  const start = (query.page - 1) * query.pageSize;
  return all.slice(start, start + query.pageSize).map((item) => structuredClone(item));
};
