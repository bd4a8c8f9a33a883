import * as t from 'io-ts';
import type { AdSyncClaim, ClaimedAdAccount } from '../../application/ports/ad-account-repository';
import type { AdAccount, ConversionProblem, ConversionSettings } from '../../domain/ad-account';

/** An account's conversion settings as stored (a JSON column, a sub-document), checked when read back. */
export const storedConversionsCodec = t.intersection([
  t.type({ enabled: t.boolean, target: t.string }),
  t.partial({ testEventCode: t.string, validateOnly: t.boolean }),
]);

export const storedConversions = (settings: t.TypeOf<typeof storedConversionsCodec>): ConversionSettings => ({
  enabled: settings.enabled,
  target: settings.target,
  ...(settings.testEventCode === undefined ? {} : { testEventCode: settings.testEventCode }),
  ...(settings.validateOnly === true ? { validateOnly: true } : {}),
});

/** An account's conversion problem as stored, checked when read back. */
export const storedConversionProblemCodec = t.type({ message: t.string, since: t.number });

export const storedConversionProblem = (problem: t.TypeOf<typeof storedConversionProblemCodec>): ConversionProblem => ({
  message: problem.message,
  since: new Date(problem.since),
});

export const conversionProblemRecord = (problem: ConversionProblem): t.TypeOf<typeof storedConversionProblemCodec> => ({
  message: problem.message,
  since: problem.since.getTime(),
});

/** The account a claim took, with the lease its sync holds. */
export const claimedAdAccount = (account: AdAccount, claim: AdSyncClaim): ClaimedAdAccount => ({
  account,
  lease: { accountId: account.id, dashboardId: account.dashboardId, leaseId: claim.leaseId, claimedAt: claim.now },
});
