import * as E from 'fp-ts/Either';
import {
  CAMPAIGN_KEYS,
  CREDENTIAL_FIELDS,
  isAdPlatform,
  isCredential,
  isCustomerId,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  MAX_AD_ACCOUNTS_PER_DASHBOARD,
  MAX_CREDENTIAL_LENGTH,
  type AdAccount,
  type AdCredentials,
  type AdPlatformName,
  type CampaignKey,
} from '../../../domain/ad-account';
import { accountIdFor, credentialsFor, type InputProblem } from '../../../domain/ad-account-input';
import { ConsoleRefusal, redirect, show, type Answer } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import type { FormProblem } from '../kit/fields';
import type { FormFields } from '../kit/forms';
import type { Viewer } from '../kit/layout';
import { field, param } from '../kit/router';
import { adAccountsListView, adAccountView, FIELD_LABELS, type RefusedForm } from './ad-accounts-views';
import { conversionsOfValues, typedConversionValues } from './conversion-fields';

const NOT_FOUND = 'There is no such ad account in this dashboard.';
/** How many of an account's last conversions its page shows; the API lists them all. */
const CONVERSIONS_SHOWN = 20;
const KEY_MISSING: FormProblem = { message: 'Credentials cannot be stored: the service runs without CREDENTIALS_KEY.' };

/** The domain's problems (`conversions.pixelId`) as the form's: each on its input, named by its label. */
const onFields = (problems: readonly InputProblem[]): FormProblem[] =>
  problems.map(({ path, message }) => {
    const name = path.slice(path.lastIndexOf('.') + 1);
    return { field: name, label: FIELD_LABELS[name] ?? name, message };
  });

const problemOf = (name: string, message: string): FormProblem => ({ field: name, label: FIELD_LABELS[name], message });

const nameProblems = (name: string): FormProblem[] =>
  name === '' || [...name].length > MAX_AD_ACCOUNT_NAME_LENGTH
    ? [problemOf('name', `must be 1 to ${MAX_AD_ACCOUNT_NAME_LENGTH} characters`)]
    : [];
const sourceProblems = (source: string): FormProblem[] =>
  source === '' || [...source].length > 255 ? [problemOf('utmSource', 'must be 1 to 255 characters')] : [];
const campaignKeyOf = (value: string): CampaignKey | undefined =>
  (CAMPAIGN_KEYS as readonly string[]).includes(value) ? (value as CampaignKey) : undefined;

/**
 * The platform's credentials out of its fields, each checked for its form as the API's body is, then
 * for being all the platform needs.
 */
const credentialsOf = (platform: AdPlatformName, form: FormFields): { ok: AdCredentials } | { problems: FormProblem[] } => {
  const names = [...CREDENTIAL_FIELDS[platform], ...(platform === 'google' ? ['loginCustomerId'] : [])];
  const typed: Record<string, string> = {};
  const problems: FormProblem[] = [];
  for (const name of names) {
    const value = field(form, name);
    if (value === '') continue;
    if (name === 'loginCustomerId' ? isCustomerId(value) : isCredential(value)) typed[name] = value;
    else
      problems.push(
        problemOf(
          name,
          name === 'loginCustomerId'
            ? 'must be a customer id of 10 digits, with or without dashes (123-456-7890)'
            : `must be 1 to ${MAX_CREDENTIAL_LENGTH} printable ASCII characters without spaces`,
        ),
      );
  }
  const credentials = credentialsFor(platform, typed);
  // A field refused for its form is not also "required".
  if ('problems' in credentials) problems.push(...onFields(credentials.problems).filter((p) => !problems.some((q) => q.field === p.field)));
  return problems.length > 0 || !('ok' in credentials) ? { problems } : { ok: credentials.ok };
};

/**
 * The Ad accounts pages of a dashboard's owners: connect an account of a chosen platform, each
 * account's state and last sync, sync now, the purchases sent back to it, change, replace the
 * credentials, disconnect. Every form is a POST with the CSRF token; a change is answered by a
 * redirect, a refusal by the page with the problems and what was typed, never a credential.
 */
export const adAccountsFeature: ConsoleFeature = {
  menu: { path: '/console/ad-accounts', label: 'Ad accounts', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const accountOf = async (viewer: Viewer, id: string): Promise<AdAccount> => {
      const found = await useCases.getAdAccount.execute(viewer.dashboard.id, id);
      if (E.isLeft(found)) throw new ConsoleRefusal(404, NOT_FOUND);
      return found.right;
    };

    const listPage = async (viewer: Viewer, platform: AdPlatformName | undefined, notice?: string, refused?: RefusedForm) =>
      adAccountsListView(
        viewer,
        await useCases.listAdAccounts.execute(viewer.dashboard.id),
        useCases.connectAdAccount.available,
        platform,
        { ...(notice === undefined ? {} : { notice }), ...(refused === undefined ? {} : { refused }) },
      );

    const accountPage = async (viewer: Viewer, account: AdAccount, notice?: string, refused?: RefusedForm) => {
      const sent = await useCases.listConversions.execute(viewer.dashboard.id, account.id, { page: 1, pageSize: CONVERSIONS_SHOWN });
      return adAccountView(viewer, account, E.isRight(sent) ? sent.right.conversions : [], {
        ...(notice === undefined ? {} : { notice }),
        ...(refused === undefined ? {} : { refused }),
      });
    };

    /** The account's page again, status 400, with the refused form as it was sent. */
    const refuse = async (viewer: Viewer, account: AdAccount, form: RefusedForm['form'], values: FormFields, problems: FormProblem[]) =>
      show(await accountPage(viewer, account, undefined, { form, values, problems }), 400);

    r.get('/console/ad-accounts', 'owner', async ({ viewer, query }) => {
      const platform = query.get('platform') ?? '';
      return show(await listPage(viewer, isAdPlatform(platform) ? platform : undefined, query.get('notice') ?? undefined));
    });

    r.post('/console/ad-accounts', 'owner', async ({ viewer, form }): Promise<Answer> => {
      const platform = field(form, 'platform');
      if (!isAdPlatform(platform))
        return show(
          await listPage(viewer, undefined, undefined, { form: 'connect', values: form, problems: [{ message: 'Choose the platform.' }] }),
          400,
        );
      const name = field(form, 'name');
      const utmSource = field(form, 'utmSource');
      const accountId = accountIdFor(platform, field(form, 'accountId'));
      const credentials = credentialsOf(platform, form);
      const conversions = conversionsOfValues(platform, typedConversionValues(platform, form));
      const problems = [
        ...nameProblems(name),
        ...('problems' in accountId ? onFields(accountId.problems) : []),
        ...(utmSource === '' ? [] : sourceProblems(utmSource)),
        ...('problems' in credentials ? credentials.problems : []),
        ...('problems' in conversions ? onFields(conversions.problems) : []),
      ];
      const refused = (all: FormProblem[]) => listPage(viewer, platform, undefined, { form: 'connect', values: form, problems: all });
      if (problems.length > 0 || !('ok' in accountId) || !('ok' in credentials) || !('ok' in conversions))
        return show(await refused(problems), 400);
      const made = await useCases.connectAdAccount.execute(
        viewer.dashboard.id,
        {
          platform,
          name,
          accountId: accountId.ok,
          campaignKey: campaignKeyOf(field(form, 'campaignKey')) ?? 'name',
          ...(utmSource === '' ? {} : { utmSource }),
          ...(conversions.ok === null ? {} : { conversions: conversions.ok }),
        },
        credentials.ok,
      );
      if (E.isLeft(made)) {
        const tag = made.left._tag;
        const why =
          tag === 'AdAccountLimitReached'
            ? { message: `This dashboard has its ${MAX_AD_ACCOUNTS_PER_DASHBOARD} ad accounts already: disconnect one first.` }
            : tag === 'AdAccountAlreadyConnected'
              ? { message: 'This dashboard already has that account: change the one there is instead.' }
              : KEY_MISSING;
        return show(await refused([why]), 400);
      }
      return redirect(`/console/ad-accounts/${made.right.id}?notice=connected`);
    });

    r.get('/console/ad-accounts/:id', 'owner', async ({ ctx, viewer, query }) =>
      show(await accountPage(viewer, await accountOf(viewer, param(ctx, 'id')), query.get('notice') ?? undefined)),
    );

    r.post('/console/ad-accounts/:id/sync', 'owner', async ({ ctx, viewer }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      if (E.isLeft(await useCases.requestAdSync.execute(viewer.dashboard.id, account.id))) throw new ConsoleRefusal(404, NOT_FOUND);
      return redirect(`/console/ad-accounts/${account.id}?notice=syncing`);
    });

    r.post('/console/ad-accounts/:id/conversions', 'owner', async ({ ctx, viewer, form }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      const asked = conversionsOfValues(account.platform, typedConversionValues(account.platform, form));
      if ('problems' in asked) return refuse(viewer, account, 'conversions', form, onFields(asked.problems));
      const changed = await useCases.updateAdAccount.execute(viewer.dashboard.id, account.id, { conversions: asked.ok });
      if (E.isLeft(changed)) throw new ConsoleRefusal(404, NOT_FOUND);
      const before = account.conversions?.enabled === true;
      const after = asked.ok?.enabled === true;
      const said = after ? 'sending' : before ? 'stopped' : 'unsent';
      return redirect(`/console/ad-accounts/${account.id}?notice=${said}`);
    });

    r.post('/console/ad-accounts/:id/edit', 'owner', async ({ ctx, viewer, form }) => {
      const account = await accountOf(viewer, param(ctx, 'id'));
      const name = field(form, 'name');
      const utmSource = field(form, 'utmSource');
      const problems = [...nameProblems(name), ...sourceProblems(utmSource)];
      if (problems.length > 0) return refuse(viewer, account, 'edit', form, problems);
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
      const credentials = credentialsOf(account.platform, form);
      if ('problems' in credentials) return refuse(viewer, account, 'credentials', form, credentials.problems);
      const changed = await useCases.updateAdAccount.execute(viewer.dashboard.id, account.id, { credentials: credentials.ok });
      if (E.isLeft(changed)) {
        if (changed.left._tag === 'CredentialsKeyMissing') return refuse(viewer, account, 'credentials', form, [KEY_MISSING]);
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
