import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { LinkRepository } from '../ports/link-repository';
import type { SlugGenerator } from '../ports/slug-generator';
import { BuildLinkUrl } from './build-link-url';
import { CreateLink } from './create-link';
import { DeleteLink } from './delete-link';
import { FollowShortLink } from './follow-short-link';
import { GetLink } from './get-link';
import { ListLinks } from './list-links';

export interface LinkPorts {
  readonly links: LinkRepository;
  readonly ids: IdGenerator;
  readonly slugs: SlugGenerator;
  readonly clock: Clock;
}

export const linkUseCases = ({ links, ids, slugs, clock }: LinkPorts) => ({
  buildLinkUrl: new BuildLinkUrl(),
  createLink: new CreateLink(links, ids, slugs, clock),
  listLinks: new ListLinks(links),
  getLink: new GetLink(links),
  deleteLink: new DeleteLink(links),
  followShortLink: new FollowShortLink(links),
});

export type LinkUseCases = ReturnType<typeof linkUseCases>;
