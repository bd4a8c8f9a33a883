import * as O from 'fp-ts/Option';
import type { WebhookEndpointRepository } from '../../application/ports/webhook-endpoint-repository';
import type { WebhookEndpoint } from '../../domain/webhook';
import { oldestFirst } from './oldest-first';

/** Endpoints in the process; each method decides and writes with no `await` in between. */
export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly byId = new Map<string, WebhookEndpoint>();

  async insert(endpoint: WebhookEndpoint, limit: number): Promise<boolean> {
    if (this.byId.has(endpoint.id)) throw new Error('webhook endpoint id already used');
    if (this.of(endpoint.dashboardId).length >= limit) return false;
    this.byId.set(endpoint.id, structuredClone(endpoint));
    return true;
  }

  async find(dashboardId: string, id: string): Promise<O.Option<WebhookEndpoint>> {
    const found = this.byId.get(id);
    return found === undefined || found.dashboardId !== dashboardId ? O.none : O.some(structuredClone(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly WebhookEndpoint[]> {
    return this.of(dashboardId)
      .sort(oldestFirst)
      .map((endpoint) => structuredClone(endpoint));
  }

  async replace(endpoint: WebhookEndpoint): Promise<boolean> {
    const stored = this.byId.get(endpoint.id);
    if (stored === undefined || stored.dashboardId !== endpoint.dashboardId || stored.version !== endpoint.version - 1) return false;
    this.byId.set(endpoint.id, structuredClone(endpoint));
    return true;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.dashboardId !== dashboardId) return false;
    this.byId.delete(id);
    return true;
  }

  private of(dashboardId: string): WebhookEndpoint[] {
    return [...this.byId.values()].filter((endpoint) => endpoint.dashboardId === dashboardId);
  }
}
