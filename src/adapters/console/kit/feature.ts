import type { ConsoleRouter } from './router';

/** Who may open a page: any member of the dashboard, or its owners alone (decision 0017). */
export type Access = 'member' | 'owner';

/** An entry of the console's menu: the server refuses an owners' page to analysts as well. */
export interface MenuEntry {
  readonly path: string;
  readonly label: string;
  readonly access: Access;
}

/**
 * A page family of the console: its folder registers its routes, and names its menu entry if it has
 * one. The console is the list of its features (console.ts), whose order is the menu's.
 */
export interface ConsoleFeature {
  readonly menu?: MenuEntry;
  readonly register: (router: ConsoleRouter) => void;
}
