import * as E from 'fp-ts/Either';
import type { Link } from '../../domain/link';
import { linkNotFound, type LinkNotFound } from '../shared/errors';
import type { LinkRepository } from '../ports/link-repository';

export class GetLink {
  constructor(private readonly links: LinkRepository) {}

  /** The dashboard's link with this id; another dashboard's link is not found. */
  async execute(dashboardId: string, id: string): Promise<E.Either<LinkNotFound, Link>> {
    return E.fromOption(() => linkNotFound(id))(await this.links.findById(dashboardId, id));
  }
}
