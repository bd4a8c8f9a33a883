import type { LinkPage, LinkPageQuery, LinkRepository } from '../ports/link-repository';

export class ListLinks {
  constructor(private readonly links: LinkRepository) {}

  /** One page of the dashboard's links, newest first, with the dashboard's total. */
  execute(dashboardId: string, query: LinkPageQuery): Promise<LinkPage> {
    return this.links.list(dashboardId, query);
  }
}
