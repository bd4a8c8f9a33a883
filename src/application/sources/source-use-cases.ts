import type { OrderUseCases } from '../orders/order-use-cases';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderRepository } from '../ports/order-repository';
import type { SourceDeliveryLog } from '../ports/source-delivery-log';
import type { SourcePlatforms } from '../ports/source-platform';
import type { SourceRepository } from '../ports/source-repository';
import { CreateSource } from './create-source';
import { DeleteSource } from './delete-source';
import { GetSource } from './get-source';
import { ListSourceDeliveries } from './list-source-deliveries';
import { ListSources } from './list-sources';
import { ReceiveSourceDelivery } from './receive-source-delivery';
import { RenameSource } from './rename-source';
import { ReplaceSourceSecret } from './replace-source-secret';

export interface SourcePorts {
  readonly sources: SourceRepository;
  readonly sourceDeliveries: SourceDeliveryLog;
  readonly sourcePlatforms: SourcePlatforms;
  readonly orders: OrderRepository;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/** Sources (decision 0021); a delivery is applied through the order use cases, so it has what an API order has. */
export const sourceUseCases = (p: SourcePorts, orders: Pick<OrderUseCases, 'createOrder' | 'updateOrder'>) => ({
  createSource: new CreateSource(p.sources, p.ids, p.clock),
  listSources: new ListSources(p.sources),
  getSource: new GetSource(p.sources),
  renameSource: new RenameSource(p.sources, p.clock),
  replaceSourceSecret: new ReplaceSourceSecret(p.sources, p.clock),
  deleteSource: new DeleteSource(p.sources, p.sourceDeliveries),
  listSourceDeliveries: new ListSourceDeliveries(p.sources, p.sourceDeliveries),
  receiveSourceDelivery: new ReceiveSourceDelivery(
    p.sources,
    p.sourceDeliveries,
    p.sourcePlatforms,
    p.orders,
    orders.createOrder,
    orders.updateOrder,
    p.ids,
    p.clock,
  ),
});

export type SourceUseCases = ReturnType<typeof sourceUseCases>;
