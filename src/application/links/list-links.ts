import { inject, injectable } from 'tsyringe';
import { LINK_REPOSITORY, type LinkPage, type LinkPageQuery, type LinkRepository } from '../ports/link-repository';

@injectable()
export class ListLinks {
  constructor(@inject(LINK_REPOSITORY) private readonly links: LinkRepository) {}

  /** One page of the dashboard's links, newest first, with the dashboard's total. */
  execute(dashboardId: string, query: LinkPageQuery): Promise<LinkPage> {
    return this.links.list(dashboardId, query);
  }
}
