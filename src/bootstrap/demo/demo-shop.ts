/**
 * The demo's shop: a Brazilian clothing store that sells mostly in reais through its own checkout,
 * and in dollars through a second one since a launch abroad. Figures are in cents.
 */

export type DemoCurrency = 'BRL' | 'USD';

/**
 * What the shop sells, with its price and what one unit costs it in each currency (decision 0020).
 * The socks have no cost: a shop that has not entered every cost sees its `uncostedUnits`.
 */
export interface DemoProduct {
  readonly sku: string;
  readonly name: string;
  readonly priceCents: Readonly<Record<DemoCurrency, number>>;
  readonly costCents?: Readonly<Record<DemoCurrency, number>>;
}

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  { sku: 'TSH-BAS', name: 'Camiseta Básica', priceCents: { BRL: 7_990, USD: 1_900 }, costCents: { BRL: 2_350, USD: 560 } },
  { sku: 'HOO-CAN', name: 'Moletom Canguru', priceCents: { BRL: 18_990, USD: 4_500 }, costCents: { BRL: 7_100, USD: 1_690 } },
  { sku: 'CAP-TRK', name: 'Boné Trucker', priceCents: { BRL: 5_990, USD: 1_500 }, costCents: { BRL: 1_800, USD: 450 } },
  { sku: 'JOG-SLM', name: 'Calça Jogger', priceCents: { BRL: 14_990, USD: 3_600 }, costCents: { BRL: 5_400, USD: 1_300 } },
  { sku: 'SNK-RUN', name: 'Tênis Runner', priceCents: { BRL: 34_990, USD: 8_500 }, costCents: { BRL: 15_750, USD: 3_800 } },
  { sku: 'SCK-KIT', name: 'Kit 3 Meias', priceCents: { BRL: 3_990, USD: 1_000 } },
  { sku: 'BAG-URB', name: 'Mochila Urbana', priceCents: { BRL: 22_990, USD: 5_500 }, costCents: { BRL: 9_200, USD: 2_200 } },
];

/** The runner's supplier raises its price for the last 30 days of the demo, so a past report shows two costs. */
export const DEMO_RAISED = { sku: 'SNK-RUN', currency: 'BRL', costCents: 17_900, daysBeforeEnd: 30 } as const;

/** The dashboard's tax rate, percent of paid revenue. */
export const DEMO_TAX_RATE = 6;

/**
 * A campaign as the ad platforms and the shop's links tag it. `role` says where it sits in a buyer's
 * path: an `awareness` campaign is often an order's first touch and a `conversion` one its last.
 * `weight` is its share of the orders; `dailyBudgetCents`, what it spends a day (none: it costs
 * nothing per day, as e-mail does); `days`, the days of the 90 it runs (all when absent).
 */
export interface DemoCampaign {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
  readonly contents: readonly string[];
  readonly terms?: readonly string[];
  readonly role: 'awareness' | 'conversion';
  readonly currency: DemoCurrency;
  readonly weight: number;
  readonly dailyBudgetCents?: number;
  readonly days?: readonly [first: number, last: number];
}

export const DEMO_CAMPAIGNS: readonly DemoCampaign[] = [
  {
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'marca-search',
    contents: ['rsa-marca'],
    terms: ['loja demo', 'loja demo roupas'],
    role: 'conversion',
    currency: 'BRL',
    weight: 14,
    dailyBudgetCents: 15_000,
  },
  {
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'generica-search',
    contents: ['rsa-moletom', 'rsa-tenis'],
    terms: ['moletom canguru', 'tenis corrida', 'calca jogger'],
    role: 'conversion',
    currency: 'BRL',
    weight: 12,
    dailyBudgetCents: 42_000,
  },
  {
    utmSource: 'google',
    utmMedium: 'shopping',
    utmCampaign: 'shopping-catalogo',
    contents: ['pmax-catalogo'],
    role: 'conversion',
    currency: 'BRL',
    weight: 11,
    dailyBudgetCents: 35_000,
  },
  {
    utmSource: 'facebook',
    utmMedium: 'paid_social',
    utmCampaign: 'retargeting-30d',
    contents: ['carrossel-mais-vendidos', 'video-15s-depoimento'],
    role: 'conversion',
    currency: 'BRL',
    weight: 12,
    dailyBudgetCents: 30_000,
  },
  {
    utmSource: 'facebook',
    utmMedium: 'paid_social',
    utmCampaign: 'lookalike-compradores',
    contents: ['video-30s-lancamento', 'imagem-estatica-a', 'imagem-estatica-b'],
    role: 'awareness',
    currency: 'BRL',
    weight: 9,
    dailyBudgetCents: 45_000,
  },
  {
    utmSource: 'facebook',
    utmMedium: 'paid_social',
    utmCampaign: 'liquida-primavera',
    contents: ['carrossel-descontos', 'video-contagem-regressiva'],
    role: 'conversion',
    currency: 'BRL',
    weight: 30,
    dailyBudgetCents: 90_000,
    days: [52, 61],
  },
  {
    utmSource: 'instagram',
    utmMedium: 'paid_social',
    utmCampaign: 'reels-criadores',
    contents: ['reels-ana', 'reels-bruno', 'reels-carla'],
    role: 'awareness',
    currency: 'BRL',
    weight: 8,
    dailyBudgetCents: 28_000,
  },
  {
    utmSource: 'instagram',
    utmMedium: 'paid_social',
    utmCampaign: 'stories-colecao',
    contents: ['stories-look-1', 'stories-look-2'],
    role: 'awareness',
    currency: 'BRL',
    weight: 5,
    dailyBudgetCents: 16_000,
  },
  {
    utmSource: 'tiktok',
    utmMedium: 'paid_social',
    utmCampaign: 'ugc-testes',
    contents: ['ugc-unboxing', 'ugc-provador'],
    role: 'awareness',
    currency: 'BRL',
    weight: 6,
    dailyBudgetCents: 22_000,
    days: [20, 89],
  },
  {
    utmSource: 'youtube',
    utmMedium: 'video',
    utmCampaign: 'preroll-inverno',
    contents: ['bumper-6s', 'instream-20s'],
    role: 'awareness',
    currency: 'BRL',
    weight: 3,
    dailyBudgetCents: 14_000,
  },
  {
    utmSource: 'email',
    utmMedium: 'newsletter',
    utmCampaign: 'newsletter-semanal',
    contents: ['destaque-topo', 'rodape'],
    role: 'conversion',
    currency: 'BRL',
    weight: 7,
  },
  {
    utmSource: 'email',
    utmMedium: 'automacao',
    utmCampaign: 'carrinho-abandonado',
    contents: ['lembrete-1h', 'lembrete-24h'],
    role: 'conversion',
    currency: 'BRL',
    weight: 6,
  },
  {
    utmSource: 'facebook',
    utmMedium: 'paid_social',
    utmCampaign: 'us-launch',
    contents: ['video-15s-en', 'carousel-en'],
    role: 'conversion',
    currency: 'USD',
    weight: 5,
    dailyBudgetCents: 9_000,
    days: [30, 89],
  },
];
