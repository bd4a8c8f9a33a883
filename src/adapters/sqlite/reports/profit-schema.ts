/**
 * The migration of decision 0020: the dashboards' tax rate (hundredths of a percent, an integer, so
 * that it reads back exactly as it was written) and the product costs, one row per (product,
 * currency, from). The primary key is the listing's order and a product's history in the order of its
 * days; the second index serves a listing filtered by currency alone. A released migration is never edited.
 */
export const PROFIT_MIGRATION = `
  ALTER TABLE dashboards ADD COLUMN tax_rate_hundredths INTEGER NOT NULL DEFAULT 0;

  CREATE TABLE product_costs (
    dashboard_id TEXT NOT NULL,
    product TEXT NOT NULL,
    currency TEXT NOT NULL,
    from_date TEXT NOT NULL,
    unit_cost_cents INTEGER NOT NULL,
    PRIMARY KEY (dashboard_id, product, currency, from_date)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX product_costs_by_currency ON product_costs (dashboard_id, currency, product, from_date);
`;
