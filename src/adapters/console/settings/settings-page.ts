import * as E from 'fp-ts/Either';
import { MAX_NAME_LENGTH } from '../../../domain/dashboard';
import { MAX_TAX_RATE } from '../../../domain/tax-rate';
import { isTimeZone, TIME_ZONES } from '../../../domain/time-zone';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { input, select } from '../kit/fields';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, problem, type Viewer } from '../kit/layout';
import { field } from '../kit/router';

const NOTICES: Readonly<Record<string, string>> = {
  saved: 'The settings were saved.',
};

/**
 * The tax rate as a person types it: up to 2 decimals after a point or a comma (`10.5`, `10,5`: a
 * spreadsheet in much of the world writes the comma). The service checks it rather than the browser,
 * whose words for a mismatch ("Please match the requested format") say neither the form nor an example.
 */
const TAX_RATE_TEXT = /^\d{1,3}(?:[.,]\d{1,2})?$/;
const TAX_RATE_FORM = 'a percent from 0 to 100 with at most 2 decimals, after a point or a comma, such as 10.5 or 10,5';

/** The rate typed, or undefined when it is not one: the API's rule (0 to 100, at most 2 decimals). */
const taxRateOf = (text: string): number | undefined => {
  if (!TAX_RATE_TEXT.test(text)) return undefined;
  const rate = Number(text.replace(',', '.'));
  return rate <= MAX_TAX_RATE ? rate : undefined;
};

/** What the form holds: the dashboard's settings, or what was typed when the form is shown again with a problem. */
interface SettingsForm {
  readonly name: string;
  readonly timezone: string;
  readonly taxRate: string;
}

/** Settings (owners): the dashboard's name, time zone and tax rate. */
export const settingsFeature: ConsoleFeature = {
  menu: { path: '/console/settings', label: 'Settings', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const settingsPage = (viewer: Viewer, top: Fragment = '', typed?: SettingsForm) => {
      const form = typed ?? { name: viewer.dashboard.name, timezone: viewer.dashboard.timezone, taxRate: String(viewer.dashboard.taxRate) };
      return page(
        viewer,
        '/console/settings',
        'Settings',
        html`${top}
          <form class="stack" method="post" action="/console/settings">
            ${csrfField(viewer)} ${input('name', 'Dashboard name', { required: true, maxlength: MAX_NAME_LENGTH, value: form.name })}
            ${select('timezone', 'Time zone of reports and spend dates', TIME_ZONES, form.timezone)}
            <div>
              <label for="taxRate">Tax rate on paid revenue, in percent (profit subtracts it)</label
              ><input id="taxRate" name="taxRate" inputmode="decimal" required aria-describedby="taxRate-form" value="${form.taxRate}" />
              <p class="muted" id="taxRate-form">Up to 2 decimals, after a point or a comma: 10.5 or 10,5.</p>
            </div>
            <div><button type="submit">Save</button></div>
          </form>`,
      );
    };
    r.get('/console/settings', 'owner', async ({ viewer, query }) =>
      show(settingsPage(viewer, notice(NOTICES[query.get('notice') ?? '']))),
    );
    r.post('/console/settings', 'owner', async ({ viewer, form }) => {
      const typed = { name: field(form, 'name'), timezone: field(form, 'timezone'), taxRate: field(form, 'taxRate').trim() };
      const taxRate = taxRateOf(typed.taxRate);
      const problems = [
        typed.name === '' || [...typed.name].length > MAX_NAME_LENGTH
          ? `Dashboard name: 1 to ${MAX_NAME_LENGTH} characters are needed.`
          : '',
        isTimeZone(typed.timezone) ? '' : 'Time zone: choose one of the list.',
        taxRate === undefined ? `Tax rate: “${typed.taxRate}” is not a tax rate from 0 to 100; type ${TAX_RATE_FORM}.` : '',
      ].filter((p) => p !== '');
      if (problems.length > 0 || taxRate === undefined) return show(settingsPage(viewer, problem(problems.join(' ')), typed), 400);
      const updated = await useCases.updateDashboard.execute(viewer.dashboard.id, { name: typed.name, timezone: typed.timezone, taxRate });
      if (E.isLeft(updated)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
      return redirect('/console/settings?notice=saved');
    });
  },
};
