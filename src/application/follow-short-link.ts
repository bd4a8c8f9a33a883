import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import { withClickParams } from '../domain/campaign-url';
import { isSlug } from '../domain/link';
import { shortLinkNotFound, type ShortLinkNotFound } from './errors';
import { LINK_REPOSITORY, type LinkRepository } from './ports/link-repository';

@injectable()
export class FollowShortLink {
  constructor(@inject(LINK_REPOSITORY) private readonly links: LinkRepository) {}

  /**
   * A click on `/l/<slug>`: counts it and answers where it goes, the link's URL with the click's own
   * query parameters (`clickQuery`, as sent after `?`) added. No authentication: the slug is the
   * secret. Text that cannot be a slug is not found without asking the store; a slug costs one
   * look-up and one atomic increment (LinkRepository.recordClick).
   */
  async execute(slug: string, clickQuery: string): Promise<E.Either<ShortLinkNotFound, { readonly location: string }>> {
    if (!isSlug(slug)) return E.left(shortLinkNotFound);
    const clicked = await this.links.recordClick(slug);
    return O.isNone(clicked) ? E.left(shortLinkNotFound) : E.right({ location: withClickParams(clicked.value.url, clickQuery) });
  }
}
