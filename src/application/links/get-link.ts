import * as E from 'fp-ts/Either';
import { inject, injectable } from 'tsyringe';
import type { Link } from '../../domain/link';
import { linkNotFound, type LinkNotFound } from '../shared/errors';
import { LINK_REPOSITORY, type LinkRepository } from '../ports/link-repository';

@injectable()
export class GetLink {
  constructor(@inject(LINK_REPOSITORY) private readonly links: LinkRepository) {}

  /** The dashboard's link with this id; another dashboard's link is not found. */
  async execute(dashboardId: string, id: string): Promise<E.Either<LinkNotFound, Link>> {
    return E.fromOption(() => linkNotFound(id))(await this.links.findById(dashboardId, id));
  }
}
