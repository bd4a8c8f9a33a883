/**
 * The tracking script of decision 0014, served at GET /tracker.js. A plain script for the browsers of
 * the last few years (ES2020), compiled by tsconfig.browser.json: one function that runs at once, no
 * module system, no dependency, no network request of its own, nothing personal and nothing that
 * tells one browser from another. What it does and why is in the README ("Tracking script").
 */

interface TrackedTouch {
  /** The captured parameters of one URL, by their name in the URL. */
  readonly v: Readonly<Record<string, string>>;
  /** The path it landed on: no query, no fragment (either may hold personal data). */
  readonly p: string;
  /** The referrer's host, '' when there was none. */
  readonly r: string;
  /** When it was captured, in milliseconds since the epoch. */
  readonly t: number;
}

/** The first touch and the last one, each while it lives. */
interface TouchPair {
  readonly f?: TrackedTouch;
  readonly l?: TrackedTouch;
}

type Fields = Record<string, string>;

interface TrackerPayload {
  readonly tracking: { readonly utmSource: string; readonly utmMedium: string; readonly utmCampaign: string };
  readonly trackingExtras: Record<string, string | Fields>;
}

interface OrdersTrackerApi {
  get(): TrackerPayload;
  decorate(url: string): string;
  consent(granted: boolean): void;
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merges into the DOM's Window
interface Window {
  /** Before the script runs, a shop may queue calls here: `[['consent', true]]`. */
  OrdersTracker?: OrdersTrackerApi | unknown[][];
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merges into the DOM's Navigator
interface Navigator {
  readonly globalPrivacyControl?: boolean;
}

(() => {
  // Loaded twice on one page: the first copy stays in charge.
  const queued = window.OrdersTracker;
  if (queued !== undefined && !Array.isArray(queued)) return;

  const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'utm_id'];
  const KEYS = [...UTM, 'fbclid', 'gclid', 'gbraid', 'wbraid', 'ttclid', 'msclkid', 'src', 'sck'];
  const STORAGE_KEY = 'orders_tracker';
  // The order API takes tracking strings of 1 to 255 characters and free-form strings up to 1,000.
  const VALUE_MAX = 255;
  const PATH_MAX = 1000;
  const DAY_MS = 864e5;
  const OURS = 'data-orders-tracker';
  /**
   * Checkouts that drop UTM parameters but carry one field of the shop's own (decision 0021): links to
   * them get the last touch there, in the compact form the sources read back (src/domain/touch.ts).
   */
  const TOUCH_FIELDS: readonly { readonly hosts: readonly string[]; readonly param: string }[] = [
    { hosts: ['pay.hotmart.com', 'go.hotmart.com'], param: 'sck' },
    { hosts: ['buy.stripe.com'], param: 'client_reference_id' },
  ];
  const TOUCH_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'];
  const TOUCH_MAX = 200;

  const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector('script[data-checkout-hosts]');
  const option = (name: string): string => script?.getAttribute(`data-${name}`)?.trim() ?? '';

  /** Cut at `max` characters (code points), never inside a surrogate pair. */
  const cut = (text: string, max: number): string => Array.from(text).slice(0, max).join('');
  const hostOf = (url: URL): string => url.hostname.replace(/\.$/, '');
  /** A lone surrogate (damaged storage) as U+FFFD: encodeURIComponent throws on one, and the order API refuses one. */
  const wellFormed = (text: string): string =>
    text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g, (unit) => (unit.length === 2 ? unit : '\ufffd'));
  const parse = (href: string): URL | undefined => {
    try {
      return new URL(href, document.baseURI);
    } catch {
      return undefined;
    }
  };

  const checkoutHosts = option('checkout-hosts')
    .split(/[\s,]+/)
    .map((entry) => entry.replace(/^\*?\./, ''))
    .map((entry) => (entry === '' ? undefined : parse(entry.includes('//') ? entry : `http://${entry}`)))
    .flatMap((url) => (url === undefined ? [] : [hostOf(url)]));
  const expiryDays = Number(option('expiry-days')) > 0 ? Number(option('expiry-days')) : 30;
  const privacyControl = navigator.globalPrivacyControl === true;
  let consented = option('consent') !== 'required';

  /** A host of `hosts`, or a subdomain of one: `pay.example.com` is not `evilpay.example.com`. */
  const onHosts = (url: URL | undefined, hosts: readonly string[]): url is URL => {
    if (url === undefined || !/^https?:$/.test(url.protocol)) return false;
    const host = hostOf(url);
    return hosts.some((listed) => host === listed || host.endsWith(`.${listed}`));
  };
  const isCheckout = (url: URL | undefined): url is URL => onHosts(url, checkoutHosts);
  /** The field of a checkout of TOUCH_FIELDS that takes the compact touch, if `url` goes to one. */
  const touchParamOf = (url: URL | undefined): string | undefined => TOUCH_FIELDS.find(({ hosts }) => onHosts(url, hosts))?.param;

  /** The captured parameters of a query string, trimmed and cut; undefined when it has none. */
  const capture = (search: string): Fields | undefined => {
    const params = new URLSearchParams(search);
    const found: Fields = {};
    for (const key of KEYS) {
      const value = cut((params.get(key) ?? '').trim(), VALUE_MAX);
      if (value !== '') found[key] = value;
    }
    return Object.keys(found).length > 0 ? found : undefined;
  };

  const here = capture(location.search);
  const current: TrackedTouch | undefined = here && {
    v: here,
    p: cut(location.pathname, PATH_MAX),
    r: document.referrer === '' ? '' : hostOf(parse(document.referrer) ?? new URL('about:blank')),
    t: Date.now(),
  };

  /** A touch read back, if it is one and lives (expired, or from more than a day ahead: not); only the known keys, as strings. */
  const alive = (touch: Partial<TrackedTouch> | undefined): TrackedTouch | undefined => {
    const now = Date.now();
    if (typeof touch?.t !== 'number' || touch.t + expiryDays * DAY_MS <= now || touch.t > now + DAY_MS || typeof touch.v !== 'object')
      return undefined;
    const v: Fields = {};
    for (const key of KEYS) {
      const value = (touch.v as Fields | null)?.[key];
      if (typeof value === 'string' && value !== '') v[key] = wellFormed(cut(value, VALUE_MAX));
    }
    return Object.keys(v).length > 0
      ? { v, p: cut(String(touch.p ?? ''), PATH_MAX), r: cut(String(touch.r ?? ''), VALUE_MAX), t: touch.t }
      : undefined;
  };
  /** Once the first touch has expired, the oldest one still alive takes its place. */
  const living = (touches: { f?: Partial<TrackedTouch>; l?: Partial<TrackedTouch> }): TouchPair => {
    const l = alive(touches.l);
    return { f: alive(touches.f) ?? l, l };
  };

  // What this page knows: the touches read from storage, or only its own URL when nothing may be stored.
  let memory: TouchPair = { f: current, l: current };
  let storageWorks = true;
  const storing = (): boolean => consented && !privacyControl;

  const touches = (): TouchPair => {
    if (!storing() || !storageWorks) return living(memory);
    let raw: string | null;
    try {
      raw = localStorage.getItem(STORAGE_KEY);
    } catch {
      storageWorks = false;
      return living(memory);
    }
    try {
      return living((JSON.parse(raw ?? '{}') as TouchPair | null) ?? {});
    } catch {
      // Not ours, or damaged: as if nothing had been stored; the next touch writes over it.
      return {};
    }
  };
  const forget = (): void => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Storage unavailable: there is nothing to clear.
    }
  };
  /** Keeps the touch of this page: the first one stays while it lives, the last one is replaced. */
  const keep = (): void => {
    if (current === undefined || !storing()) return;
    const known = touches();
    memory = { f: known.f ?? current, l: current };
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(memory));
    } catch {
      storageWorks = false;
    }
  };

  const camel = (key: string): string => key.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
  const NOT_SET = '(not set)';
  /** A touch in the words of the order payload: utmSource…, click ids, src, sck, where and when. */
  const fieldsOf = (touch: TrackedTouch): Fields => {
    const fields: Fields = { utmSource: NOT_SET, utmMedium: NOT_SET, utmCampaign: NOT_SET };
    for (const key of KEYS) if (touch.v[key] !== undefined) fields[camel(key)] = touch.v[key]!;
    if (touch.p !== '') fields['landingPath'] = touch.p;
    if (touch.r !== '') fields['referrerHost'] = touch.r;
    fields['capturedAt'] = new Date(touch.t).toISOString();
    return fields;
  };

  const get = (): TrackerPayload => {
    const { f, l } = touches();
    if (l === undefined) return { tracking: { utmSource: '(direct)', utmMedium: '(none)', utmCampaign: '(none)' }, trackingExtras: {} };
    const { utmSource, utmMedium, utmCampaign, ...extras } = fieldsOf(l);
    return {
      tracking: { utmSource: utmSource!, utmMedium: utmMedium!, utmCampaign: utmCampaign! },
      trackingExtras: { ...extras, firstTouch: fieldsOf(f ?? l) },
    };
  };

  /**
   * The last touch's parameters a destination does not have yet. The utm_* parameters go as one set:
   * a destination with any of its own keeps its campaign whole, rather than half of two.
   */
  const missing = (last: TrackedTouch | undefined, has: (key: string) => boolean): [string, string][] => {
    if (last === undefined) return [];
    const ownCampaign = UTM.some(has);
    return KEYS.filter((key) => last.v[key] !== undefined && !has(key) && !(ownCampaign && key.startsWith('utm_'))).map((key) => [
      key,
      last.v[key]!,
    ]);
  };

  const utf8 = new TextEncoder();
  const escaped = (byte: number): string => `_${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
  /**
   * The compact touch of decision 0021, as src/domain/touch.ts writes it: `t1-<source>-<medium>-<campaign>-
   * <content>-<term>`, letters and digits as they are, every other character as `_XX` of its UTF-8
   * bytes, the last fields shortened first (a whole character at a time) to fit 200 characters.
   * Undefined for a touch without campaign fields.
   */
  const compactTouch = (v: Fields): string | undefined => {
    if (!TOUCH_KEYS.some((key) => v[key] !== undefined)) return undefined;
    const fields = TOUCH_KEYS.map((key) =>
      Array.from(v[key] ?? '', (char) => (/^[A-Za-z0-9]$/.test(char) ? char : Array.from(utf8.encode(char), escaped).join(''))),
    );
    let length = 2 + TOUCH_KEYS.length + fields.reduce((sum, chars) => sum + chars.join('').length, 0);
    for (let index = fields.length - 1; index >= 0 && length > TOUCH_MAX; index--) {
      const chars = fields[index]!;
      while (chars.length > 0 && length > TOUCH_MAX) length -= chars.pop()!.length;
    }
    return ['t1', ...fields.map((chars) => chars.join(''))].join('-');
  };

  /**
   * `href` with the missing parameters appended (`every`), or only the compact touch a platform's
   * field takes (a Hotmart or Stripe link of a host the shop did not list); the rest of it (order,
   * encoding, fragment) as it was. A field the link already has is never replaced.
   */
  const decorate = (href: string, every = true): string => {
    const url = parse(href);
    if (url === undefined || !/^https?:$/.test(url.protocol)) return href;
    const last = touches().l;
    const param = touchParamOf(url);
    const compact = param === undefined || url.searchParams.has(param) || last === undefined ? undefined : compactTouch(last.v);
    const added: [string, string][] = param === undefined || compact === undefined ? [] : [[param, compact]];
    if (every) added.push(...missing(last, (key) => url.searchParams.has(key) || added.some(([name]) => name === key)));
    if (added.length === 0) return href;
    const [base = '', ...fragment] = url.href.split('#');
    const joint = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
    const query = added.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
    return `${base}${joint}${query}${fragment.length > 0 ? `#${fragment.join('#')}` : ''}`;
  };

  const decorateLink = (link: HTMLAnchorElement | HTMLAreaElement): void => {
    const url = parse(link.href);
    const listed = isCheckout(url);
    if (!listed && touchParamOf(url) === undefined) return;
    const decorated = decorate(link.href, listed);
    if (decorated !== link.href) link.href = decorated;
  };

  /**
   * Hidden inputs for a form that sends to a checkout host, refreshed each time; never beside a field
   * of the same name. Attributes rather than `form.action` and `form.method`, which a field named
   * `action` or `method` would hide.
   */
  const decorateForm = (form: HTMLFormElement, submitter?: HTMLElement | null): void => {
    const target = parse(submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? '');
    if (!isCheckout(target)) return;
    form.querySelectorAll(`input[${OURS}]`).forEach((input) => input.remove());
    const method = submitter?.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get';
    const posted = method.toLowerCase() !== 'get';
    const named = (key: string): boolean => form.elements.namedItem(key) !== null || (posted && target.searchParams.has(key));
    for (const [key, value] of missing(touches().l, named)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = key;
      input.value = value;
      input.setAttribute(OURS, '');
      form.appendChild(input);
    }
  };

  // At click time (mouse, touch, keyboard; a new tab too), on the document: links added later count.
  const onInteraction = (event: Event): void => {
    for (const node of event.composedPath()) {
      if (node instanceof HTMLAnchorElement || node instanceof HTMLAreaElement) decorateLink(node);
      else if (node instanceof HTMLFormElement) decorateForm(node);
      else continue;
      return;
    }
  };
  // A key that activates a link fires `click`; `focusin` reaches a form before it is typed in.
  for (const type of ['mousedown', 'touchstart', 'click', 'auxclick', 'contextmenu', 'focusin']) {
    document.addEventListener(type, onInteraction, { capture: true, passive: true });
  }
  document.addEventListener('submit', (event) => decorateForm(event.target as HTMLFormElement, event.submitter), true);
  const decorateForms = (): void => Array.from(document.forms).forEach((form) => decorateForm(form));

  const consent = (granted: boolean): void => {
    consented = granted;
    if (granted) keep();
    else {
      forget();
      memory = { f: current, l: current };
    }
  };

  if (privacyControl) forget();
  keep();
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', decorateForms);
  else decorateForms();

  const api: OrdersTrackerApi = { get, decorate: (url: string) => decorate(url), consent };
  window.OrdersTracker = api;
  for (const [name, ...args] of queued ?? []) {
    if (name === 'consent') consent(args[0] === true);
  }
})();
