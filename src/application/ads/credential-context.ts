/** What a sealed credential is bound to: its dashboard and account, so that it opens for no other record. */
export const credentialContext = (dashboardId: string, adAccountId: string): string => `ad-account/${dashboardId}/${adAccountId}`;
