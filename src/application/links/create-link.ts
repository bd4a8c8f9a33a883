import { newLink, type Link, type LinkInput } from '../../domain/link';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { LinkRepository } from '../ports/link-repository';
import type { SlugGenerator } from '../ports/slug-generator';

/**
 * How many slugs a creation draws before it gives up. With 65 random bits a second draw is already
 * beyond reach of chance; several attempts failing mean the generator is broken, and that is a bug
 * (500), not something to retry forever.
 */
export const SLUG_ATTEMPTS = 5;

export class SlugsExhaustedError extends Error {
  override readonly name = 'SlugsExhaustedError';
}

export class CreateLink {
  constructor(
    private readonly links: LinkRepository,
    private readonly ids: IdGenerator,
    private readonly slugs: SlugGenerator,
    private readonly clock: Clock,
  ) {}

  /** Saves a new link in the dashboard with a fresh slug; a slug already taken is drawn again. */
  async execute(dashboardId: string, input: LinkInput): Promise<Link> {
    const id = this.ids.next('lnk');
    const now = this.clock.now();
    for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
      const link = newLink(input, { id, dashboardId, slug: this.slugs.next() }, now);
      if (await this.links.insert(link)) return link;
    }
    throw new SlugsExhaustedError(`no free slug in ${SLUG_ATTEMPTS} draws`);
  }
}
