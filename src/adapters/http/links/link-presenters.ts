import type * as t from 'io-ts';
import { utmFieldsOf } from '../../../domain/campaign-url';
import type { Link } from '../../../domain/link';
import type { LinkView } from './link-views';

/** A link as the API shows it, with its short link under `publicBaseUrl`; its params as an object, in their order. */
export const linkView = (link: Link, publicBaseUrl: string): t.TypeOf<typeof LinkView> => ({
  id: link.id,
  ...(link.name === undefined ? {} : { name: link.name }),
  destinationUrl: link.destinationUrl,
  ...utmFieldsOf(link),
  params: Object.fromEntries(link.params.map(({ key, value }) => [key, value])),
  url: link.url,
  shortUrl: `${publicBaseUrl}/l/${link.slug}`,
  clicks: link.clicks,
  createdAt: link.createdAt.toISOString(),
});
