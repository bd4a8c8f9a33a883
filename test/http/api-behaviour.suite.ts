import type { Storage } from '../../src/application/ports/storage';
import { adminApiBehaviour } from './behaviour/admin-api';
import { authenticationBehaviour } from './behaviour/authentication';
import { bodyValidationShapeBehaviour } from './behaviour/body-validation-shape';
import { bodyValidationValuesBehaviour } from './behaviour/body-validation-values';
import { createOrderBehaviour } from './behaviour/create-order';
import { dashboardIsolationBehaviour } from './behaviour/dashboard-isolation';
import { edgeBehaviour } from './behaviour/edge';
import { freeFormValidationBehaviour } from './behaviour/free-form-validation';
import { hostileBodiesBehaviour } from './behaviour/hostile-bodies';
import { idempotencyBehaviour } from './behaviour/idempotency';
import { listQueryValidationBehaviour } from './behaviour/list-query-validation';
import { linksBehaviour } from './behaviour/links';
import { listingBehaviour } from './behaviour/listing';
import { operationsAndLogsBehaviour } from './behaviour/operations-and-logs';
import { rateLimitsBehaviour } from './behaviour/rate-limits';
import { profitBehaviour } from './behaviour/profit';
import { reportsBehaviour } from './behaviour/reports';
import { requestErrorsBehaviour } from './behaviour/request-errors';
import { requestIdsBehaviour } from './behaviour/request-ids';
import { storageFailuresBehaviour } from './behaviour/storage-failures';
import { updateOrderBehaviour } from './behaviour/update-order';
import { webhookDeliveriesBehaviour } from './behaviour/webhook-deliveries';
import { webhookEndpointsBehaviour } from './behaviour/webhook-endpoints';
import { webhookOutboundBehaviour } from './behaviour/webhook-outbound';

/**
 * The whole HTTP behaviour of the service, through the real Koa app on a real socket, over the
 * storage `storageFactory` makes. The factory must return storage over an empty database at each
 * call: every test starts its own service on it and stops it afterwards.
 */
export const apiBehaviourSuite = (storageName: string, storageFactory: () => Promise<Storage>): void => {
  describe(`HTTP API on ${storageName} storage`, () => {
    createOrderBehaviour(storageFactory);
    bodyValidationShapeBehaviour(storageFactory);
    bodyValidationValuesBehaviour(storageFactory);
    freeFormValidationBehaviour(storageFactory);
    listingBehaviour(storageFactory);
    listQueryValidationBehaviour(storageFactory);
    updateOrderBehaviour(storageFactory);
    authenticationBehaviour(storageFactory);
    dashboardIsolationBehaviour(storageFactory);
    requestErrorsBehaviour(storageFactory);
    storageFailuresBehaviour(storageFactory);
    requestIdsBehaviour(storageFactory);
    adminApiBehaviour(storageFactory);
    operationsAndLogsBehaviour(storageFactory);
    idempotencyBehaviour(storageFactory);
    rateLimitsBehaviour(storageFactory);
    edgeBehaviour(storageFactory);
    hostileBodiesBehaviour(storageFactory);
    webhookEndpointsBehaviour(storageFactory);
    webhookDeliveriesBehaviour(storageFactory);
    webhookOutboundBehaviour(storageFactory);
    linksBehaviour(storageFactory);
    reportsBehaviour(storageFactory);
    profitBehaviour(storageFactory);
  });
};
