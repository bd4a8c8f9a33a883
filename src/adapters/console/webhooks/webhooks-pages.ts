import * as E from 'fp-ts/Either';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../domain/webhook';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { checkboxes, input } from '../kit/fields';
import { EVENT_WORDS } from '../kit/words';
import { count } from '../kit/format';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';
import { field, param } from '../kit/router';
import { secretBlock } from '../kit/shown-once';
import { table } from '../kit/table';
import { webhookDeliveryLog } from './delivery-log';

const NOTICES: Readonly<Record<string, string>> = {
  enabled: 'The endpoint is enabled.',
  disabled: 'The endpoint is disabled: nothing is sent to it.',
  deleted: 'The endpoint was deleted with its delivery log.',
  tested: 'A webhook.test event is on its way; its attempt appears in the log below.',
  retried: 'One more attempt is on its way.',
};

const webhookError = (tag: string): string =>
  ({
    WebhookLimitReached: 'This dashboard has its 20 endpoints already.',
    WebhookNotFound: 'There is no such endpoint in this dashboard.',
    WebhookDisabled: 'The endpoint is disabled: enable it first.',
    DeliveryNotFound: 'There is no such delivery.',
  })[tag] ?? 'That did not work.';

/** Webhooks (decision 0012): endpoints, the secret once, the delivery log, retry, test, rotate. */
export const webhooksFeature: ConsoleFeature = {
  menu: { path: '/console/webhooks', label: 'Webhooks', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const eventBoxes = (chosen: readonly WebhookEventType[]) =>
      checkboxes(
        'event',
        'Events (none checked: every event)',
        WEBHOOK_EVENT_TYPES,
        chosen,
        (e) => html`${EVENT_WORDS[e]} <code class="muted">${e}</code>`,
      );
    const webhooksPage = async (viewer: Viewer, top: Fragment = '') => {
      const endpoints = await useCases.listWebhooks.execute(viewer.dashboard.id);
      return page(
        viewer,
        '/console/webhooks',
        'Webhooks',
        html`${top}
          <h2>Add an endpoint</h2>
          <form class="stack" method="post" action="/console/webhooks">
            ${csrfField(viewer)} ${input('url', 'URL', { type: 'url', required: true, maxlength: MAX_WEBHOOK_URL_LENGTH })}
            ${input('description', 'Description (optional)', { maxlength: MAX_WEBHOOK_DESCRIPTION_LENGTH })} ${eventBoxes([])}
            <div><button type="submit">Add the endpoint</button></div>
          </form>
          <h2>Endpoints</h2>
          ${table({
            label: 'Endpoints',
            rows: endpoints,
            empty: html`<p>No endpoints.</p>`,
            columns: [
              { header: 'URL', cell: (w) => html`<a href="/console/webhooks/${w.id}">${w.url}</a>` },
              { header: 'Events', cell: (w) => (w.events.length === 0 ? 'every event' : w.events.join(', ')) },
              {
                header: 'State',
                cell: (w) => (w.enabled ? 'enabled' : `disabled${w.disabledReason === undefined ? '' : ` (${w.disabledReason})`}`),
              },
            ],
          })}`,
      );
    };
    r.get('/console/webhooks', 'owner', async ({ viewer, query }) =>
      show(await webhooksPage(viewer, [r.flashes.take(viewer), notice(NOTICES[query.get('notice') ?? ''])])),
    );
    r.post('/console/webhooks', 'owner', async ({ viewer, form }) => {
      const url = field(form, 'url');
      const description = field(form, 'description');
      const events = form.getAll('event').filter((e): e is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
      if (url === '' || url.length > MAX_WEBHOOK_URL_LENGTH || [...description].length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
        return show(
          await webhooksPage(
            viewer,
            problem(
              `An endpoint needs a URL (at most ${count(MAX_WEBHOOK_URL_LENGTH)} characters) and a description of at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH}.`,
            ),
          ),
          400,
        );
      const made = await useCases.createWebhook.execute(viewer.dashboard.id, {
        url,
        events,
        ...(description === '' ? {} : { description }),
      });
      if (E.isLeft(made)) {
        const why =
          made.left._tag === 'WebhookUrlNotAllowed' ? `That URL is not allowed. ${made.left.reason}.` : webhookError(made.left._tag);
        return show(await webhooksPage(viewer, problem(why)), 400);
      }
      r.flashes.put(viewer, secretBlock(`The signing secret of ${made.right.url}.`, made.right.secret));
      return redirect('/console/webhooks');
    });

    const endpointPage = async (viewer: Viewer, endpoint: WebhookEndpoint, top: Fragment = '') => {
      const log = await useCases.listDeliveries.execute(viewer.dashboard.id, endpoint.id, { page: 1, pageSize: 50 });
      const deliveries = E.isRight(log) ? log.right.deliveries : [];
      const action = (path: string, label: string, kind: 'secondary' | 'danger' = 'secondary') =>
        postButton(viewer, `/console/webhooks/${endpoint.id}/${path}`, label, kind);
      return page(
        viewer,
        '/console/webhooks',
        `Endpoint ${endpoint.url}`,
        html`${top}
          <p>
            ${endpoint.description ?? ''} · ${endpoint.events.length === 0 ? 'every event' : endpoint.events.join(', ')} ·
            ${endpoint.enabled ? 'enabled' : 'disabled'}
          </p>
          <p>
            ${action('test', 'Send a test event')} ${endpoint.enabled ? action('disable', 'Disable') : action('enable', 'Enable')}
            ${action('rotate', 'Rotate the secret')} ${action('delete', 'Delete', 'danger')}
          </p>
          <h2>Delivery log</h2>
          ${webhookDeliveryLog(viewer, endpoint.id, deliveries)}
          <p><a href="/console/webhooks">All endpoints</a></p>`,
      );
    };
    const endpointOf = async (viewer: Viewer, id: string): Promise<WebhookEndpoint> => {
      const found = await useCases.getWebhook.execute(viewer.dashboard.id, id);
      if (E.isLeft(found)) throw new ConsoleRefusal(404, webhookError('WebhookNotFound'));
      return found.right;
    };
    r.get('/console/webhooks/:id', 'owner', async ({ ctx, viewer, query }) =>
      show(
        await endpointPage(viewer, await endpointOf(viewer, param(ctx, 'id')), [
          r.flashes.take(viewer),
          notice(NOTICES[query.get('notice') ?? '']),
        ]),
      ),
    );
    const endpointAction = (
      path: string,
      act: (viewer: Viewer, id: string, deliveryId: string) => Promise<E.Either<{ _tag: string }, unknown>>,
      done: string,
    ) =>
      r.post(`/console/webhooks/:id/${path}`, 'owner', async ({ ctx, viewer }) => {
        const id = param(ctx, 'id');
        const result = await act(viewer, id, param(ctx, 'deliveryId'));
        if (E.isLeft(result)) throw new ConsoleRefusal(result.left._tag.endsWith('NotFound') ? 404 : 409, webhookError(result.left._tag));
        return redirect(done === 'deleted' ? '/console/webhooks?notice=deleted' : `/console/webhooks/${id}?notice=${done}`);
      });
    endpointAction('test', (v, id) => useCases.sendTestWebhook.execute(v.dashboard.id, id), 'tested');
    endpointAction('enable', (v, id) => useCases.updateWebhook.execute(v.dashboard.id, id, { enabled: true }), 'enabled');
    endpointAction('disable', (v, id) => useCases.updateWebhook.execute(v.dashboard.id, id, { enabled: false }), 'disabled');
    endpointAction('delete', (v, id) => useCases.deleteWebhook.execute(v.dashboard.id, id), 'deleted');
    endpointAction(
      'deliveries/:deliveryId/retry',
      (v, id, deliveryId) => useCases.retryDelivery.execute(v.dashboard.id, id, deliveryId),
      'retried',
    );
    r.post('/console/webhooks/:id/rotate', 'owner', async ({ ctx, viewer }) => {
      const rotated = await useCases.rotateWebhookSecret.execute(viewer.dashboard.id, param(ctx, 'id'));
      if (E.isLeft(rotated)) throw new ConsoleRefusal(404, webhookError(rotated.left._tag));
      r.flashes.put(
        viewer,
        secretBlock('The new signing secret; the previous one keeps signing beside it for 24 hours.', rotated.right.secret),
      );
      return redirect(`/console/webhooks/${rotated.right.id}`);
    });
  },
};
