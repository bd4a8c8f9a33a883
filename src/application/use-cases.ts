import { adAccountUseCases, type AdAccountPorts, type AdAccountUseCases } from './ads/ad-account-use-cases';
import { accessUseCases, type AccessPorts, type AccessUseCases } from './access/access-use-cases';
import { accountUseCases, type AccountPorts, type AccountUseCases } from './accounts/accounts-use-cases';
import { costUseCases, type CostPorts, type CostUseCases } from './costs/cost-use-cases';
import { guardUseCases, type GuardPorts, type GuardUseCases } from './guards/guard-use-cases';
import { linkUseCases, type LinkPorts, type LinkUseCases } from './links/link-use-cases';
import { orderUseCases, type OrderPorts, type OrderUseCases } from './orders/order-use-cases';
import { reportUseCases, type ReportPorts, type ReportUseCases } from './reports/report-use-cases';
import { sourceUseCases, type SourcePorts, type SourceUseCases } from './sources/source-use-cases';
import { spendUseCases, type SpendPorts, type SpendUseCases } from './spend/spend-use-cases';
import { webhookUseCases, type WebhookPorts, type WebhookUseCases } from './webhooks/webhook-use-cases';

/** What every feature needs from the outside: bootstrap builds one of each. */
export type Ports = AccessPorts &
  AccountPorts &
  GuardPorts &
  OrderPorts &
  LinkPorts &
  WebhookPorts &
  ReportPorts &
  SpendPorts &
  SourcePorts &
  CostPorts &
  AdAccountPorts;

/**
 * Every use case of the service, handed to the driving adapters (the HTTP app, the CLI, the webhook
 * workers). A feature's use cases are listed once, in its builder.
 */
export type UseCases = AccessUseCases &
  AccountUseCases &
  GuardUseCases &
  OrderUseCases &
  LinkUseCases &
  WebhookUseCases &
  ReportUseCases &
  SpendUseCases &
  SourceUseCases &
  CostUseCases &
  AdAccountUseCases;

export const buildUseCases = (ports: Ports): UseCases => {
  const orders = orderUseCases(ports);
  return {
    ...accessUseCases(ports),
    ...accountUseCases(ports),
    ...guardUseCases(ports),
    ...orders,
    ...linkUseCases(ports),
    ...webhookUseCases(ports),
    ...reportUseCases(ports),
    ...spendUseCases(ports),
    ...sourceUseCases(ports, orders),
    ...costUseCases(ports),
    ...adAccountUseCases(ports),
  };
};
