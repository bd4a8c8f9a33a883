import * as E from 'fp-ts/Either';
import { ORDER_STATUSES, type OrderStatus } from '../../../domain/order-status';
import { isCalendarDate, nextDate, startOfDate } from '../../../domain/time-zone';
import { ConsoleRefusal, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { input, select } from '../kit/fields';
import { counted, dateTime, money } from '../kit/format';
import { STATUS_WORDS } from '../kit/words';
import { html } from '../kit/html';
import { page } from '../kit/layout';
import { table } from '../kit/table';
import { param } from '../kit/router';

/** Orders (decision 0018): the list with its filters and pages, and one order with its events. */
export const ordersFeature: ConsoleFeature = {
  menu: { path: '/console/orders', label: 'Orders', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;
    r.get('/console/orders', 'member', async ({ viewer, query }) => {
      const zone = viewer.dashboard.timezone;
      const status = (ORDER_STATUSES as readonly string[]).includes(query.get('status') ?? '')
        ? (query.get('status') as OrderStatus)
        : undefined;
      const pageNumber = Math.min(1_000_000, Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1));
      const from = query.get('from') ?? '';
      const to = query.get('to') ?? '';
      const listed = await useCases.listOrders.execute(viewer.dashboard.id, {
        ...(status === undefined ? {} : { status }),
        ...(isCalendarDate(from) ? { from: new Date(startOfDate(from, zone)) } : {}),
        ...(isCalendarDate(to) ? { to: new Date(startOfDate(nextDate(to), zone) - 1) } : {}),
        page: pageNumber,
        pageSize: 50,
      });
      const pages = Math.max(1, Math.ceil(listed.total / 50));
      const link = (p: number) => {
        const q = new URLSearchParams(query);
        q.set('page', String(p));
        return `/console/orders?${q.toString()}`;
      };
      return show(
        page(
          viewer,
          '/console/orders',
          'Orders',
          html`<form class="filters" method="get" action="/console/orders">
              ${select('status', 'Status', ORDER_STATUSES, status ?? '', 'Any', STATUS_WORDS)}
              ${input('from', 'From', { type: 'date', value: isCalendarDate(from) ? from : '' })}
              ${input('to', 'To', { type: 'date', value: isCalendarDate(to) ? to : '' })}
              <div><button type="submit">Filter</button></div>
            </form>
            <p class="muted">${counted(listed.total, 'order')} · page ${pageNumber} of ${pages}</p>
            ${table({
              label: 'Orders',
              rows: listed.orders,
              columns: [
                {
                  header: 'Order',
                  cell: (o) =>
                    html`<a href="/console/orders/${encodeURIComponent(o.externalId)}">${o.externalId}</a
                      >${o.isTest ? html` <span class="muted">(test)</span>` : ''}`,
                },
                { header: 'Created', cell: (o) => dateTime(o.createdAt, zone) },
                { header: 'Status', cell: (o) => STATUS_WORDS[o.status] },
                { header: 'Gross', money: (o) => ({ cents: o.amounts.grossCents, currency: o.amounts.currency }) },
                { header: 'Source / campaign', cell: (o) => `${o.tracking.utmSource} / ${o.tracking.utmCampaign}` },
                { header: 'Payment', cell: (o) => o.paymentMethod },
              ],
            })}
            <nav class="pages" aria-label="Pages">
              ${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}">Previous page</a>` : ''}${pageNumber < pages ? html`<a href="${link(pageNumber + 1)}">Next page</a>` : ''}
            </nav>`,
        ),
      );
    });

    r.get('/console/orders/:externalId', 'member', async ({ ctx, viewer }) => {
      const zone = viewer.dashboard.timezone;
      const found = await useCases.getOrder.execute(viewer.dashboard.id, param(ctx, 'externalId'));
      if (E.isLeft(found)) throw new ConsoleRefusal(404, 'There is no such order in this dashboard.');
      const o = found.right;
      const history: [string, Date | undefined][] = [
        ['Created', o.createdAt],
        ['Paid', o.paidAt],
        ['Refunded', o.refundedAt],
        ['Charged back', o.chargedbackAt],
        [`Last changed (version ${o.version})`, o.updatedAt],
      ];
      return show(
        page(
          viewer,
          '/console/orders',
          `Order ${o.externalId}`,
          html`<dl class="cards">
              <div>
                <dt>Status</dt>
                <dd>${STATUS_WORDS[o.status]}</dd>
              </div>
              <div>
                <dt>Gross</dt>
                <dd>${money(o.amounts.grossCents, o.amounts.currency)}</dd>
              </div>
              <div>
                <dt>Net to seller</dt>
                <dd>${money(o.amounts.netToSellerCents, o.amounts.currency)}</dd>
              </div>
              <div>
                <dt>Payment</dt>
                <dd>${o.paymentMethod}</dd>
              </div>
              <div>
                <dt>Platform</dt>
                <dd>${o.platform}</dd>
              </div>
            </dl>
            <h2>Events</h2>
            ${table({
              label: 'Events of the order',
              rows: history.flatMap(([what, at]) => (at === undefined ? [] : [{ what, at }])),
              columns: [
                { header: 'What', cell: (event) => event.what },
                { header: 'When', cell: (event) => dateTime(event.at, zone) },
              ],
            })}
            <h2>Attribution</h2>
            <p>${o.tracking.utmSource} / ${o.tracking.utmMedium} / ${o.tracking.utmCampaign}</p>
            <h2>Products</h2>
            ${table({
              label: 'Products of the order',
              rows: o.products,
              columns: [
                { header: 'Product', cell: (p) => p.name },
                { header: 'Quantity', count: (p) => p.quantity },
                { header: 'Unit price', money: (p) => ({ cents: p.unitPriceCents, currency: o.amounts.currency }) },
              ],
            })}
            <p><a href="/console/orders">All orders</a></p>`,
        ),
      );
    });
  },
};
