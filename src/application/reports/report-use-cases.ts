import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ReportReader } from '../ports/report-reader';
import type { SpendRepository } from '../ports/spend-repository';
import { GetBreakdown } from './get-breakdown';
import { GetProducts } from './get-products';
import { GetTimeseries } from './get-timeseries';
import { ListUncostedProducts } from './list-uncosted-products';

export interface ReportPorts {
  readonly dashboards: DashboardRepository;
  readonly reports: ReportReader;
  readonly spend: SpendRepository;
}

export const reportUseCases = ({ dashboards, reports, spend }: ReportPorts) => ({
  getBreakdown: new GetBreakdown(dashboards, reports),
  getTimeseries: new GetTimeseries(dashboards, reports, spend),
  getProducts: new GetProducts(dashboards, reports),
  listUncostedProducts: new ListUncostedProducts(dashboards, reports),
});

export type ReportUseCases = ReturnType<typeof reportUseCases>;
