import * as O from 'fp-ts/Option';
import type { LinkPage, LinkPageQuery, LinkRepository } from '../../../application/ports/link-repository';
import type { Link } from '../../../domain/link';
import { pageOf } from '../page-of';
import { newestFirst } from '../newest-first';

/**
 * Links in the process. Each method checks and writes with no `await` in between, so on one event
 * loop a click is counted atomically. Links are copied in and out, so no caller shares a reference
 * with the store.
 */
export class InMemoryLinkRepository implements LinkRepository {
  private readonly byId = new Map<string, Link>();
  private readonly idBySlug = new Map<string, string>();

  async insert(link: Link): Promise<boolean> {
    if (this.idBySlug.has(link.slug)) return false;
    if (this.byId.has(link.id)) throw new Error('link id already used');
    this.byId.set(link.id, structuredClone(link));
    this.idBySlug.set(link.slug, link.id);
    return true;
  }

  async findById(dashboardId: string, id: string): Promise<O.Option<Link>> {
    const found = this.byId.get(id);
    return found === undefined || found.dashboardId !== dashboardId ? O.none : O.some(structuredClone(found));
  }

  async list(dashboardId: string, query: LinkPageQuery): Promise<LinkPage> {
    const matching = [...this.byId.values()].filter((link) => link.dashboardId === dashboardId).sort(newestFirst);
    return { links: pageOf(matching, query), total: matching.length };
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const found = this.byId.get(id);
    if (found === undefined || found.dashboardId !== dashboardId) return false;
    this.byId.delete(id);
    this.idBySlug.delete(found.slug);
    return true;
  }

  async findBySlug(slug: string): Promise<O.Option<Link>> {
    const id = this.idBySlug.get(slug);
    const found = id === undefined ? undefined : this.byId.get(id);
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async recordClick(slug: string): Promise<O.Option<Link>> {
    const id = this.idBySlug.get(slug);
    const found = id === undefined ? undefined : this.byId.get(id);
    if (found === undefined) return O.none;
    const clicked = { ...found, clicks: found.clicks + 1 };
    this.byId.set(found.id, clicked);
    return O.some(structuredClone(clicked));
  }
}
