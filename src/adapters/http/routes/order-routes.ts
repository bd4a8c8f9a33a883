import * as E from 'fp-ts/Either';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateOrder } from '../../../application/create-order';
import type { GetOrder } from '../../../application/get-order';
import type { ListOrders } from '../../../application/list-orders';
import type { UpdateOrder } from '../../../application/update-order';
import { CreateOrderBody, ExternalIdParam, UpdateOrderBody } from '../codecs/order-codecs';
import { DEFAULT_PAGE_SIZE, ListOrdersQuery } from '../codecs/list-query';
import { decodeOrThrow } from '../decode';
import { ProblemError, validationFailed } from '../http-errors';
import { createdOrder, orderDetail, orderListItem } from '../presenters';
import { principalOf } from '../request-state';

export interface OrderRouteDeps {
  readonly createOrder: CreateOrder;
  readonly listOrders: ListOrders;
  readonly getOrder: GetOrder;
  readonly updateOrder: UpdateOrder;
  /** Runs before every order route: authentication, then whatever else guards the API. */
  readonly guards: readonly Middleware[];
  /** Runs before the routes that write: JSON body parsing, then whatever else wraps a write. */
  readonly writeGuards: readonly Middleware[];
}

export const ORDERS_PATH = '/api/v1/orders';
export const ORDER_PATH = '/api/v1/orders/:externalId';

const orderLocation = (externalId: string): string => `${ORDERS_PATH}/${encodeURIComponent(externalId)}`;

/** The public orders API: thin handlers, decode → use case → status and body. */
export const registerOrderRoutes = (router: Router, deps: OrderRouteDeps): void => {
  router.post(ORDERS_PATH, ...deps.guards, ...deps.writeGuards, async (ctx) => {
    const body = decodeOrThrow(CreateOrderBody, ctx.request.body);
    const result = await deps.createOrder.execute(principalOf(ctx.state).dashboardId, body, ctx.state.reservedId);
    if (E.isLeft(result)) throw new ProblemError(result.left);
    ctx.status = 201;
    ctx.set('Location', orderLocation(result.right.externalId));
    ctx.body = { order: createdOrder(result.right) };
  });

  router.get(ORDERS_PATH, ...deps.guards, async (ctx) => {
    const query = decodeOrThrow(ListOrdersQuery, ctx.query, 'query');
    if (query.from !== undefined && query.to !== undefined && query.from.getTime() > query.to.getTime()) {
      throw validationFailed([{ path: 'query.from', message: 'must not be later than query.to' }]);
    }
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { status, from, to } = query;
    const result = await deps.listOrders.execute(principalOf(ctx.state).dashboardId, { status, from, to, page, pageSize });
    ctx.body = { orders: result.orders.map(orderListItem), page, pageSize, total: result.total };
  });

  router.get(ORDER_PATH, ...deps.guards, async (ctx) => {
    const externalId = decodeOrThrow(ExternalIdParam, ctx.params.externalId, 'path.externalId');
    const result = await deps.getOrder.execute(principalOf(ctx.state).dashboardId, externalId);
    if (E.isLeft(result)) throw new ProblemError(result.left);
    ctx.body = { order: orderDetail(result.right) };
  });

  router.patch(ORDER_PATH, ...deps.guards, ...deps.writeGuards, async (ctx) => {
    const externalId = decodeOrThrow(ExternalIdParam, ctx.params.externalId, 'path.externalId');
    const changes = decodeOrThrow(UpdateOrderBody, ctx.request.body);
    const result = await deps.updateOrder.execute(principalOf(ctx.state).dashboardId, externalId, changes);
    if (E.isLeft(result)) throw new ProblemError(result.left);
    ctx.body = { order: orderListItem(result.right) };
  });
};
