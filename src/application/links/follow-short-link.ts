import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { withClickParams } from '../../domain/campaign-url';
import { isSlug } from '../../domain/link';
import { shortLinkNotFound, type ShortLinkNotFound } from '../shared/errors';
import type { LinkRepository } from '../ports/link-repository';

export interface FollowOptions {
  /**
   * Whether this request is a click: false for one that only asks where the link goes (a `HEAD`, as
   * link checkers send), which is answered the same and counts nothing.
   */
  readonly count: boolean;
}

export class FollowShortLink {
  constructor(private readonly links: LinkRepository) {}

  /**
   * A request for `/l/<slug>`: answers where it goes, the link's URL with the request's own query
   * parameters (`clickQuery`, as sent after `?`) added, and counts it as a click when `count` says so.
   * No authentication: the slug is the secret. Text that cannot be a slug is not found without asking
   * the store; a slug costs one look-up, and a click one atomic increment with it
   * (LinkRepository.recordClick, else LinkRepository.findBySlug).
   */
  async execute(
    slug: string,
    clickQuery: string,
    { count }: FollowOptions,
  ): Promise<E.Either<ShortLinkNotFound, { readonly location: string }>> {
    if (!isSlug(slug)) return E.left(shortLinkNotFound);
    const found = count ? await this.links.recordClick(slug) : await this.links.findBySlug(slug);
    return O.isNone(found) ? E.left(shortLinkNotFound) : E.right({ location: withClickParams(found.value.url, clickQuery) });
  }
}
