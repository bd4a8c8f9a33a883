import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/** The repository's tracked files, as git lists them (the clone a user gets). */
const tracked = (): string[] => execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces made `-`. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a markdown file's headings, a repeated heading numbered as GitHub numbers it. */
const anchorsOf = (text: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = anchorOf(heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
};

/** The relative links of a markdown text, outside code: `[text](target)`, no scheme, no bare `#`. */
const linksOf = (text: string): string[] => {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
};

describe('the repository stands on its own', () => {
  const files = tracked();
  const markdown = files.filter((file) => file.endsWith('.md'));

  it('has every relative link of its markdown reach a file of the repository, and a heading of it when it names one', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const link of linksOf(text)) {
        const [path, anchor] = link.split('#', 2) as [string, string | undefined];
        const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
        if (relative(ROOT, target).startsWith('..') || !existsSync(target)) {
          broken.push(`${file}: ${link} (no such file in the repository)`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && statSync(target).isFile()) {
          if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('names no file outside it: no text points to a folder beside the clone or to decisions by a number it does not keep', () => {
    const outside: string[] = [];
    for (const file of files) {
      if (file === 'package-lock.json' || /\.(png|jpg|ico|woff2?|db)$/.test(file)) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        // A released SQLite migration is kept byte for byte, its SQL comments included (its hash is checked).
        if (file.startsWith('src/adapters/sqlite/') && line.trim().startsWith('-- ')) return;
        if (/\.\.\/shared\/(spec|STYLE)|DECISIONS\.md|\bDECISIONS D\d/.test(line)) outside.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(outside).to.deep.equal([]);
  });

  it('keeps the README within 150 lines, with a screenshot of the console that is in the repository', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.trimEnd().split('\n').length).to.be.at.most(150);
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(images.length).to.be.at.least(1);
    for (const image of images) expect(files, image).to.include(image);
  });
});
