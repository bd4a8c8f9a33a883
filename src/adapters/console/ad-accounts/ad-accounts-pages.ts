import * as E from 'fp-ts/Either';
import {
  CAMPAIGN_KEYS,
  isAdPlatform,
  isCredential,
  isCustomerId,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  type AdAccount,
  type CampaignKey,
} from '../../../domain/ad-account';
import { accountIdFor, credentialsFor } from '../../../domain/ad-account-input';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import type { FormFields } from '../kit/forms';
import type { Viewer } from '../kit/layout';
import { field, param } from '../kit/router';
import { adAccountsListView, adAccountView } from './ad-accounts-views';

const NOT_FOUND = 'There is no such ad account in this dashboard.';
const CREDENTIAL_NAMES = ['accessToken', 'developerToken', 'clientId', 'clientSecret', 'refreshToken', 'loginCustomerId'] as const;

const nameOf = (value: string): string | undefined => (value === '' || [...value].length > MAX_AD_ACCOUNT_NAME_LENGTH ? undefined : value);
const campaignKeyOf = (value: string): CampaignKey | undefined =>
  (CAMPAIGN_KEYS as readonly string[]).includes(value) ? (value as CampaignKey) : undefined;
const sourceOf = (value: string): string | undefined => (value === '' || [...value].length > 255 ? undefined : value);

/** The credential fields filled in, each of a credential's form; undefined when one is not. */
const typedCredentials = (form: FormFields): Record<string, string> | undefined => {
  const typed: Record<string, string> = {};
  for (const name of CREDENTIAL_NAMES) {
    const value = (form.get(name) ?? '').trim();
    if (value === '') continue;
    if (!(name === 'loginCustomerId' ? isCustomerId(value) : isCredential(value))) return undefined;
    typed[name] = value;
  }
  return typed;
};

/**
 * The Ad accounts pages of a dashboard's owners: connect an account, each account's state and last
 * sync, sync now, change, replace the credentials, disconnect. Every form is a POST with the CSRF
 * token answered by a redirect; a credential never travels back in a redirect, only the platform,
 * the name and the account id.
 */
/** How many of an account's last conversions its page shows; the API lists them all. */
const CONVERSIONS_SHOWN = 20;

export const adAccountsFeature: ConsoleFeature = {
  menu: { path: '/console/ad-accounts', label: 'Ad accounts', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const accountOf = async (viewer: Viewer, id: string): Promise<AdAccount> => {
      const found = await useCases.getAdAccount.execute(viewer.dashboard.id, id);
      if (E.isLeft(found)) throw new ConsoleRefusal(404, NOT_FOUND);
      return found.right;
    };

    r.get('/console/ad-accounts', 'owner', async ({ viewer, query }) =>
      show(
        adAccountsListView(viewer, await useCases.listAdAccounts.execute(viewer.dashboard.id), useCases.connectAdAccount.available, query),
      ),
    );

    r.post('/console/ad-accounts', 'owner', async ({ viewer, form }) => {
      const platform = field(form, 'platform');
      const kept = {
        platform,
        name: field(form, 'name'),
        accountId: field(form, 'accountId'),
        campaignKey: field(form, 'campaignKey'),
        utmSource: field(form, 'utmSource'),
      };
      const back = (problem: string) => redirect(`/console/ad-accounts?${new URLSearchParams({ problem, ...kept }).toString()}`);
      if (!isAdPlatform(platform)) return back('platform');
      const name = nameOf(kept.name);
      if (name === undefined) return back('name');
      const campaignKey = campaignKeyOf(kept.campaignKey) ?? 'name';
      const utmSource = kept.utmSource === '' ? undefined : sourceOf(kept.utmSource);
      if (kept.utmSource !== '' && utmSource === undefined) return back('utmSource');
      const accountId = accountIdFor(platform, kept.accountId);
      if (!('ok' in accountId)) return back('accountId');
      const typed = typedCredentials(form);
      const credentials = typed === undefined ? undefined : credentialsFor(platform, typed);
      if (credentials === undefined || !('ok' in credentials)) return back('credentials');
      const made = await useCases.connectAdAccount.execute(
        viewer.dashboard.id,
        { platform, name, accountId: accountId.ok, campaignKey, ...(utmSource === undefined ? {} : { utmSource }) },
        credentials.ok,
      );
      if (E.isLeft(made)) {
        const tag = made.left._tag;
        return back(tag === 'AdAccountLimitReached' ? 'limit' : tag === 'AdAccountAlreadyConnected' ? 'duplicate' : 'key');
      }
      return redirect(`/console/ad-accounts/${made.right.id}?notice=connected`);
    });

    r.get('/console/ad-accounts/:id', 'owner', async ({ ctx, viewer, query }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      const sent = await useCases.listConversions.execute(viewer.dashboard.id, account.id, { page: 1, pageSize: CONVERSIONS_SHOWN });
      return show(adAccountView(viewer, account, query, E.isRight(sent) ? sent.right.conversions : []));
    });

    r.post('/console/ad-accounts/:id/sync', 'owner', async ({ ctx, viewer }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      if (E.isLeft(await useCases.requestAdSync.execute(viewer.dashboard.id, account.id))) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect(`/console/ad-accounts/${account.id}?notice=syncing`);
    });

    r.post('/console/ad-accounts/:id/edit', 'owner', async ({ ctx, viewer, form }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      const name = nameOf(field(form, 'name'));
      const utmSource = sourceOf(field(form, 'utmSource'));
      const back = (problem: string) => redirect(`/console/ad-accounts/${account.id}?problem=${problem}`);
      if (name === undefined) return back('name');
      if (utmSource === undefined) return back('utmSource');
      const campaignKey = campaignKeyOf(field(form, 'campaignKey')) ?? account.campaignKey;
      const changes = {
        name,
        ...(campaignKey === account.campaignKey ? {} : { campaignKey }),
        ...(utmSource === account.utmSource ? {} : { utmSource }),
      };
      if (E.isLeft(await useCases.updateAdAccount.execute(viewer.dashboard.id, account.id, changes)))
        throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect(`/console/ad-accounts/${account.id}?notice=changed`);
    });

    r.post('/console/ad-accounts/:id/credentials', 'owner', async ({ ctx, viewer, form }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      const typed = typedCredentials(form);
      const credentials = typed === undefined ? undefined : credentialsFor(account.platform, typed);
      if (credentials === undefined || !('ok' in credentials)) return redirect(`/console/ad-accounts/${account.id}?problem=credentials`);
      const changed = await useCases.updateAdAccount.execute(viewer.dashboard.id, account.id, { credentials: credentials.ok });
      if (E.isLeft(changed)) {
        if (changed.left._tag === 'CredentialsKeyMissing') return redirect(`/console/ad-accounts/${account.id}?problem=key`);
        throw new ConsoleRefusal(404, NOT_FOUND);
      }
      return redirect(`/console/ad-accounts/${account.id}?notice=credentials`);
    });

    r.post('/console/ad-accounts/:id/delete', 'owner', async ({ ctx, viewer }) => {
      if (E.isLeft(await useCases.deleteAdAccount.execute(viewer.dashboard.id, param(ctx, 'id')))) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect('/console/ad-accounts?notice=deleted');
    });
  },
};
