import type { Range, ReportScope } from '../../domain/report';
import type { ProductCell, ReportReader, UncostedSummary } from '../ports/report-reader';

/** Nothing left out: every paid unit had a cost. */
export const NOTHING_UNCOSTED: UncostedSummary = { units: 0, products: 0 };

/**
 * What a report's profit leaves out, given the uncosted units its own figures add up to: how many
 * products those units are is read only when there are some, so a report whose units are all
 * costed costs nothing more.
 */
export const uncostedSummary = (
  reports: ReportReader,
  dashboardId: string,
  query: ReportScope & { readonly range: Range; readonly costZone: string },
  units: number,
): Promise<UncostedSummary> => (units === 0 ? Promise.resolve(NOTHING_UNCOSTED) : reports.uncosted(dashboardId, query));

/** The uncosted units of some products report cells, and how many products they are (a cell's units are never negative). */
export const uncostedOfCells = (cells: Iterable<Pick<ProductCell, 'product' | 'uncostedUnits'>>): UncostedSummary => {
  let units = 0;
  const products = new Set<string>();
  for (const cell of cells)
    if (cell.uncostedUnits > 0) {
      units += cell.uncostedUnits;
      products.add(cell.product);
    }
  return { units, products: products.size };
};
