import { MAX_WEBHOOK_URL_LENGTH } from '../../../domain/webhook';
import * as t from 'io-ts';
import { Documented } from '../kit/json-schema';

/**
 * The shape of a webhook URL, written once for the codec and the document: `http` or `https`, a
 * host (a DNS name whose last label starts with a letter, a dotted-quad IPv4 address or a bracketed
 * IPv6 address), an optional port, path and query; no credentials (no `@` before the path), no
 * fragment. Everything it accepts is a URL that the WHATWG parser (Node's `URL`) reads as written, so
 * a name is never read as a number (`0x7f.1`) and nothing hides in a user part. Whether `http` and
 * the host's addresses are allowed is decided after, by the outbound rules.
 */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const LAST_LABEL = '[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DNS_NAME = `(?:${LABEL}\\.)*${LAST_LABEL}`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?:(?::${H16}){1,7}|:)`,
].join('|');
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';
const PATH = "[A-Za-z0-9._~!$&'()*+,;=:@%/-]";
const QUERY = "[A-Za-z0-9._~!$&'()*+,;=:@%/?-]";

export const WEBHOOK_URL_PATTERN = `^https?://(?:${DNS_NAME}|${IPV4}|\\[(?:${IPV6})\\])(?::${PORT})?(?:/${PATH}*)?(?:\\?${QUERY}*)?$`;

const SHAPE = new RegExp(WEBHOOK_URL_PATTERN);

const MESSAGE =
  `must be an absolute https:// URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters: a host name or an IP address, ` +
  'an optional port, path and query, without credentials or fragment';

/** Credentials get a message of their own: they are refused on purpose, not for their form. */
const hasCredentials = (text: string): boolean => {
  try {
    const url = new URL(text);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
};

const isWebhookUrl = (u: unknown): u is string => typeof u === 'string' && [...u].length <= MAX_WEBHOOK_URL_LENGTH && SHAPE.test(u);

export const webhookUrl = new Documented<string>(
  'WebhookUrl',
  isWebhookUrl,
  (u, c) =>
    isWebhookUrl(u)
      ? t.success(u)
      : t.failure(u, c, typeof u === 'string' && hasCredentials(u) ? 'must not contain credentials (user:password@)' : MESSAGE),
  t.identity,
  () => ({
    type: 'string',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    pattern: WEBHOOK_URL_PATTERN,
    examples: ['https://hooks.example.com/orders'],
    description:
      'Where the events are sent: `https://` only, to a host that is (or resolves only to) public addresses. Loopback, private, ' +
      'link-local, carrier-grade NAT, unique-local, multicast, unspecified and other reserved addresses are refused when the ' +
      'endpoint is saved (422 `WEBHOOK_URL_NOT_ALLOWED`) and again on every connection. No credentials, no fragment. ' +
      '`http://` and inside addresses are allowed only by a service run with WEBHOOK_ALLOW_PRIVATE_URLS=true (development).',
  }),
);
