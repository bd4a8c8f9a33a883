import * as E from 'fp-ts/Either';
import { replaceSourceSecret, type Source } from '../../domain/source';
import { sourceNotFound, type SourceNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { SourceRepository } from '../ports/source-repository';
import { changeStored } from '../shared/change-stored';

export class ReplaceSourceSecret {
  constructor(
    private readonly sources: SourceRepository,
    private readonly clock: Clock,
  ) {}

  /** The platform's new secret (after the shop rotated it there): from now on deliveries are checked with it alone. */
  async execute(dashboardId: string, id: string, secret: string): Promise<E.Either<SourceNotFound, Source>> {
    const replaced = await changeStored('source', this.sources, dashboardId, id, (current) =>
      replaceSourceSecret(current, secret, this.clock.now()),
    );
    return E.fromOption(() => sourceNotFound(id))(replaced);
  }
}
