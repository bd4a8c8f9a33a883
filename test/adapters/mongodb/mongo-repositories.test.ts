import { expect } from 'chai';
import type { Storage } from '../../../src/application/ports/storage';
import { dashboardRepositoryContract } from '../../contract/dashboard-repository.contract';
import { deliveryRepositoryContract } from '../../contract/delivery-repository.contract';
import { linkRepositoryContract } from '../../contract/link-repository.contract';
import { orderRepositoryContract } from '../../contract/order-repository.contract';
import { reportReaderContract } from '../../contract/report-reader.contract';
import { breakdownRowsContract } from '../../contract/breakdown-rows.contract';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { REPORT_DIRTY } from '../../../src/adapters/mongodb/orders/order-document';
import { profitReportsContract } from '../../contract/profit-reports.contract';
import { adAccountRepositoryContract } from '../../contract/ad-account-repository.contract';
import { conversionRepositoryContract } from '../../contract/conversion-repository.contract';
import { spendRepositoryContract } from '../../contract/spend-repository.contract';
import { productCostRepositoryContract } from '../../contract/product-cost-repository.contract';
import { accountStoresContract } from '../../contract/account-stores.contract';
import { eventFeedContract } from '../../contract/event-feed.contract';
import { MongoReportRollup } from '../../../src/adapters/mongodb/reports/mongo-report-rollup';
import { sourceDeliveryLogContract } from '../../contract/source-delivery-log.contract';
import { sourceRepositoryContract } from '../../contract/source-repository.contract';
import { tokenRepositoryContract } from '../../contract/token-repository.contract';
import { webhookEndpointRepositoryContract } from '../../contract/webhook-endpoint-repository.contract';
import { webhookOutboxContract } from '../../contract/webhook-outbox.contract';
import { describeWithMongo } from '../../support/mongo-server';

describeWithMongo('MongoDB repositories', (mongo) => {
  let storage: Storage;

  before(async () => {
    storage = await mongo.connect();
  });

  /** The same storage for every test, over collections emptied first (their indexes stay). */
  const emptied = async (): Promise<Storage> => {
    await mongo.empty();
    return storage;
  };

  orderRepositoryContract('MongoOrderRepository', async () => (await emptied()).orders);
  dashboardRepositoryContract('MongoDashboardRepository', async () => (await emptied()).dashboards);
  tokenRepositoryContract('MongoTokenRepository', async () => (await emptied()).tokens);
  webhookEndpointRepositoryContract('MongoWebhookEndpointRepository', async () => (await emptied()).webhooks);
  deliveryRepositoryContract('MongoDeliveryRepository', async () => (await emptied()).deliveries);
  webhookOutboxContract('MongoWebhookOutbox', async () => emptied(), false);
  linkRepositoryContract('MongoLinkRepository', async () => (await emptied()).links);
  sourceRepositoryContract('MongoSourceRepository', async () => (await emptied()).sources);
  sourceDeliveryLogContract('MongoSourceDeliveryLog', async () => (await emptied()).sourceDeliveries);
  spendRepositoryContract('MongoSpendRepository', async () => (await emptied()).spend);
  adAccountRepositoryContract('MongoAdAccountRepository', async () => (await emptied()).adAccounts);
  conversionRepositoryContract('MongoConversionRepository', async () => emptied());
  productCostRepositoryContract('MongoProductCostRepository', async () => (await emptied()).productCosts);
  accountStoresContract('MongoDB', async () => (await emptied()).accounts);
  eventFeedContract('MongoDB', emptied);
  /** Runs the rollup until it has counted every order: what a report reads is then its cells. */
  const rolledUp = async (given: Storage): Promise<void> => {
    const rollup = given.workers?.find((worker) => worker instanceof MongoReportRollup);
    if (rollup === undefined) throw new Error('the MongoDB storage runs no report rollup');
    while ((await rollup.catchUp(0)) > 0);
    expect(
      await mongo.client
        .db(mongo.dbName)
        .collection(COLLECTIONS.orders)
        .countDocuments({ [REPORT_DIRTY]: true }),
    ).to.equal(0);
  };
  reportReaderContract('MongoReportReader', emptied, rolledUp);
  breakdownRowsContract('MongoReportReader', emptied, rolledUp);
  profitReportsContract('MongoDB', emptied, rolledUp);
});
