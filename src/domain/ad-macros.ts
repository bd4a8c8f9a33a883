/**
 * The macros of the ad platforms, which the platform replaces with the campaign's values when it
 * serves the ad (decision 0013). A link keeps them verbatim wherever they appear, text around them included:
 * `{{campaign.name}}-x`, `{campaignid}_{adgroupid}`, `__CAMPAIGN_NAME__`. Only what has the shape of
 * a macro is kept; a brace of anything else is text, and is encoded.
 */
export interface AdMacro {
  readonly platform: string;
  /** Sticky, so that it matches at one index only. */
  readonly pattern: RegExp;
  readonly examples: readonly string[];
}

export const AD_MACROS: readonly AdMacro[] = [
  {
    // Meta's URL parameters: a name, dotted into the object it belongs to.
    platform: 'Meta',
    pattern: /\{\{[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*\}\}/y,
    examples: ['{{campaign.name}}', '{{adset.id}}', '{{site_source_name}}'],
  },
  {
    // Google's ValueTrack parameters, with the value of a condition (`{ifmobile:mobile}`) and the
    // escaped landing page (`{lpurl+2}`).
    platform: 'Google',
    pattern: /\{[A-Za-z0-9_]+(?:\+[0-9]|:[A-Za-z0-9._~-]*)?\}/y,
    examples: ['{campaignid}', '{adgroupid}', '{keyword}', '{ifmobile:mobile}', '{_season}'],
  },
  {
    // TikTok's: uppercase words between double underscores. Made of unreserved characters only, so
    // encoding would leave them as they are anyway; they are listed so that the rule says so.
    platform: 'TikTok',
    pattern: /__[A-Z0-9]+(?:_[A-Z0-9]+)*__/y,
    examples: ['__CAMPAIGN_NAME__', '__CID__', '__AID_NAME__'],
  },
];

/** The macro that starts at `index` of `text`, or undefined. */
export const macroAt = (text: string, index: number): string | undefined => {
  for (const { pattern } of AD_MACROS) {
    pattern.lastIndex = index;
    const found = pattern.exec(text);
    if (found !== null) return found[0];
  }
  return undefined;
};
