import type { Statement } from 'better-sqlite3';

/** Statements whose SQL is built per query (a report's filters, a listing's pieces): each prepared the first time its text is seen. */
export const builtStatements = (connection: { prepare(sql: string): Statement }): ((sql: string) => Statement) => {
  const built = new Map<string, Statement>();
  return (sql) => {
    let statement = built.get(sql);
    if (statement === undefined) {
      statement = connection.prepare(sql);
      built.set(sql, statement);
    }
    return statement;
  };
};

/** `AND dashboard_id NOT IN (?, …)`, a placeholder per dashboard a claim skips, or nothing when it skips none. */
export const skippingDashboards = (skip: readonly string[]): string =>
  skip.length === 0 ? '' : `AND dashboard_id NOT IN (${skip.map(() => '?').join(', ')})`;
