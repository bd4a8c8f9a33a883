import * as E from 'fp-ts/Either';
import { isTimeZone, TIME_ZONES } from '../../../domain/time-zone';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, problem, type Viewer } from '../kit/layout';
import { field } from '../kit/router';

const NOTICES: Readonly<Record<string, string>> = {
  saved: 'The settings were saved.',
};

const TAX_RATE = /^\d{1,3}(\.\d{1,2})?$/;

/** Settings (owners): the dashboard's name, time zone and tax rate. */
export const settingsFeature: ConsoleFeature = {
  menu: { path: '/console/settings', label: 'Settings', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const settingsPage = (viewer: Viewer, top: Fragment = '') =>
      page(
        viewer,
        '/console/settings',
        'Settings',
        html`${top}
          <form class="stack" method="post" action="/console/settings">
            ${csrfField(viewer)}
            <div>
              <label for="name">Dashboard name</label
              ><input id="name" name="name" required maxlength="200" value="${viewer.dashboard.name}" />
            </div>
            <div>
              <label for="timezone">Time zone of reports and spend dates</label
              ><select id="timezone" name="timezone">
                ${TIME_ZONES.map((z) => html`<option value="${z}" ${z === viewer.dashboard.timezone ? html` selected` : ''}>${z}</option>`)}
              </select>
            </div>
            <div>
              <label for="taxRate">Tax rate on paid revenue, in percent (profit subtracts it)</label
              ><input
                id="taxRate"
                name="taxRate"
                inputmode="decimal"
                required
                pattern="\\d{1,3}(\\.\\d{1,2})?"
                value="${String(viewer.dashboard.taxRate)}"
              />
            </div>
            <div><button type="submit">Save</button></div>
          </form>`,
      );
    r.get('/console/settings', 'owner', async ({ viewer, query }) =>
      show(settingsPage(viewer, notice(NOTICES[query.get('notice') ?? '']))),
    );
    r.post('/console/settings', 'owner', async ({ viewer, form }) => {
      const name = field(form, 'name');
      const timezone = field(form, 'timezone');
      // The API's rule (DECISIONS D20): 0 to 100, at most 2 decimals.
      const taxText = field(form, 'taxRate').trim();
      const taxRate = TAX_RATE.test(taxText) ? Number(taxText) : Number.NaN;
      if (name === '' || name.length > 200 || !isTimeZone(timezone) || !(taxRate >= 0 && taxRate <= 100))
        return show(
          settingsPage(
            viewer,
            problem('A name of 1 to 200 characters, a time zone of the list and a tax rate from 0 to 100 (at most 2 decimals) are needed.'),
          ),
          400,
        );
      const updated = await useCases.updateDashboard.execute(viewer.dashboard.id, { name, timezone, taxRate });
      if (E.isLeft(updated)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
      return redirect('/console/settings?notice=saved');
    });
  },
};
