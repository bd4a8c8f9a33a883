import * as E from 'fp-ts/Either';
import { linkNotFound, type LinkNotFound } from '../shared/errors';
import type { LinkRepository } from '../ports/link-repository';

export class DeleteLink {
  constructor(private readonly links: LinkRepository) {}

  /** Deletes the dashboard's link; its short link answers 404 from then on. Another dashboard's link is not found. */
  async execute(dashboardId: string, id: string): Promise<E.Either<LinkNotFound, void>> {
    return (await this.links.delete(dashboardId, id)) ? E.right(undefined) : E.left(linkNotFound(id));
  }
}
