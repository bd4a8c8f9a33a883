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
   * Where `/l/<slug>` goes: the link's URL with the click's own query parameters (`clickQuery`) added,
   * counted as a click when `count` says so. Text that cannot be a slug never reaches the store.
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
