/** A table's columns as the statements name them: `a, b` to select or insert, `@a, @b` to bind, `b = @b` to update all but the fixed ones. */
export const columnLists = (columns: readonly string[], fixed: readonly string[] = []) => ({
  names: columns.join(', '),
  bindings: columns.map((column) => `@${column}`).join(', '),
  updates: columns
    .filter((column) => !fixed.includes(column))
    .map((column) => `${column} = @${column}`)
    .join(', '),
});
