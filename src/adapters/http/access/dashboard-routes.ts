import { pipe } from 'fp-ts/function';
import { reply } from '../kit/replies';
import { route } from '../kit/route';
import { dashboardView } from './access-presenters';
import { DashboardResponse } from './admin-codecs';

export const getDashboardRoute = route({
  method: 'get',
  path: '/api/v1/dashboard',
  operationId: 'getDashboard',
  summary: "The bearer token's dashboard, with its time zone and tax rate",
  tag: 'dashboard',
  guards: ['token', 'rateLimit'],
  scope: 'any',
  responses: { 200: { description: 'The dashboard.', body: DashboardResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal }, { useCases }) =>
    pipe(
      await useCases.getDashboard.execute(principal.dashboardId),
      reply(200, (dashboard) => ({ dashboard: dashboardView(dashboard) })),
    ),
});

export const dashboardRoutes = [getDashboardRoute];
