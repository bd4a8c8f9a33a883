import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/Either';
import {
  isSourceSecret,
  MAX_SOURCE_NAME_LENGTH,
  SOURCE_PLATFORMS,
  sourceUrl,
  type Source,
  type SourcePlatformName,
} from '../../../domain/source';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { field, param } from '../kit/router';
import type { Viewer } from '../kit/layout';
import { LOG_PAGE_SIZE } from './delivery-log';
import { unreachableBecause } from './reachability';
import { sourcesListView, sourceView } from './sources-views';

const isPlatform = (value: string): value is SourcePlatformName => (SOURCE_PLATFORMS as readonly string[]).includes(value);

/** A form's name, or undefined when it is empty or too long. */
const nameOf = (value: string): string | undefined => (value === '' || [...value].length > MAX_SOURCE_NAME_LENGTH ? undefined : value);

const NOT_FOUND = 'There is no such source in this dashboard.';

/**
 * The Sources pages of a dashboard's owners (decisions 0021, 0022): create a source, the URL to paste with
 * the platform's steps (and a warning when no platform can reach it), rename, replace the secret,
 * delete, and each source's delivery log. Every form
 * is a POST with the CSRF token answered by a redirect (a reload repeats nothing); a problem is named
 * in the redirect's query, never a value but the platform and the name.
 */
export const sourcesFeature: ConsoleFeature = {
  menu: { path: '/console/sources', label: 'Sources', access: 'owner' },
  register: (r) => {
    const { useCases, publicBaseUrl, configuredBaseUrl } = r.deps;
    const unreachable = () => unreachableBecause(configuredBaseUrl, publicBaseUrl());

    const sourceOf = async (viewer: Viewer, id: string): Promise<Source> => {
      const found = await useCases.getSource.execute(viewer.dashboard.id, id);
      if (E.isLeft(found)) throw new ConsoleRefusal(404, NOT_FOUND);
      return found.right;
    };

    r.get('/console/sources', 'owner', async ({ viewer, query }) => {
      const sources = await useCases.listSources.execute(viewer.dashboard.id);
      return show(sourcesListView(viewer, sources, (source) => sourceUrl(publicBaseUrl(), source), query, unreachable()));
    });

    r.post('/console/sources', 'owner', async ({ viewer, form }) => {
      const platform = field(form, 'platform');
      const name = nameOf(field(form, 'name'));
      // Kept exactly as typed: a WooCommerce secret may begin or end with a space.
      const typed = form.get('secret') ?? '';
      const back = (problem: string) =>
        redirect(`/console/sources?${new URLSearchParams({ problem, platform, name: field(form, 'name') }).toString()}`);
      if (!isPlatform(platform)) return back('platform');
      if (name === undefined) return back('name');
      if (typed !== '' && !isSourceSecret(typed)) return back('secret');
      // Without the platform's secret yet, one nobody knows: every delivery is refused until it is replaced.
      const secret = typed === '' ? randomBytes(32).toString('base64url') : typed;
      const made = await useCases.createSource.execute(viewer.dashboard.id, { platform, name, secret });
      if (E.isLeft(made)) return back('limit');
      return redirect(`/console/sources/${made.right.id}?notice=${typed === '' ? 'created-without-secret' : 'created'}`);
    });

    r.get('/console/sources/:id', 'owner', async ({ ctx, viewer, query }) => {
      const source = await sourceOf(viewer, param(ctx, 'id'));
      const number = Math.min(Math.max(Number.parseInt(query.get('page') ?? '1', 10) || 1, 1), 1_000);
      const log = await useCases.listSourceDeliveries.execute(viewer.dashboard.id, source.id, { page: number, pageSize: LOG_PAGE_SIZE });
      if (E.isLeft(log)) throw new ConsoleRefusal(404, NOT_FOUND);
      return show(sourceView(viewer, source, sourceUrl(publicBaseUrl(), source), { page: log.right, number }, query, unreachable()));
    });

    r.post('/console/sources/:id/rename', 'owner', async ({ ctx, viewer, form }) => {
      const source = await sourceOf(viewer, param(ctx, 'id'));
      const name = nameOf(field(form, 'name'));
      if (name === undefined) return redirect(`/console/sources/${source.id}?problem=name`);
      const renamed = await useCases.renameSource.execute(viewer.dashboard.id, source.id, name);
      if (E.isLeft(renamed)) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect(`/console/sources/${source.id}?notice=renamed`);
    });

    r.post('/console/sources/:id/secret', 'owner', async ({ ctx, viewer, form }) => {
      const source = await sourceOf(viewer, param(ctx, 'id'));
      const secret = form.get('secret') ?? '';
      if (!isSourceSecret(secret)) return redirect(`/console/sources/${source.id}?problem=secret`);
      const replaced = await useCases.replaceSourceSecret.execute(viewer.dashboard.id, source.id, secret);
      if (E.isLeft(replaced)) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect(`/console/sources/${source.id}?notice=secret`);
    });

    r.post('/console/sources/:id/delete', 'owner', async ({ ctx, viewer }) => {
      const deleted = await useCases.deleteSource.execute(viewer.dashboard.id, param(ctx, 'id'));
      if (E.isLeft(deleted)) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect('/console/sources?notice=deleted');
    });
  },
};
