import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/**
 * The dependency rule of docs/development.md, read from the imports of every file under src/: arrows
 * only point down (bootstrap → adapters → application → domain), adapters of one technology do not
 * reach into another's, the application imports no package but fp-ts, and the container (tsyringe,
 * reflect-metadata) is bootstrap's alone: registrations are written there and nowhere else.
 */

const ROOT = resolve(__dirname, '../../..');
const SRC = join(ROOT, 'src');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

interface Import {
  /** The module as written. */
  readonly specifier: string;
  /** For a relative import, the file's path under src/ (`adapters/http/app`); otherwise undefined. */
  readonly target?: string;
  /** The names it imports, when it lists them. */
  readonly names: readonly string[];
}

const importsOf = (file: string): Import[] => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier !== undefined) {
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : undefined;
      const names =
        bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
      const target = specifier.startsWith('.') ? relative(SRC, resolve(dirname(file), specifier)) : undefined;
      out.push({ specifier, target, names });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
};

const layerOf = (path: string): string => path.split('/')[0];
/** `adapters/mongodb/...` → `mongodb`. */
const adapterOf = (path: string): string | undefined => (path.startsWith('adapters/') ? path.split('/')[1] : undefined);

const BUILTIN = /^node:/;
/** What each layer may import besides its own files and the layers below it. */
const PACKAGES: Record<string, RegExp> = {
  domain: /^fp-ts(\/|$)/,
  application: /^fp-ts(\/|$)/,
  adapters: /^(?!tsyringe$|reflect-metadata$)/,
  bootstrap: /./,
};
const BELOW: Record<string, readonly string[]> = {
  domain: [],
  application: ['domain'],
  adapters: ['application', 'domain'],
  bootstrap: ['adapters', 'application', 'domain'],
};
/** Adapters every adapter may use: ids, clocks and randomness of the system; what every store shares of persistence. */
const SHARED_ADAPTERS = ['system', 'persistence'];

interface SourceFile {
  readonly path: string;
  readonly imports: readonly Import[];
}

const downwardViolations = (files: readonly SourceFile[]): string[] =>
  files.flatMap(({ path, imports }) => {
    const layer = layerOf(path);
    return imports
      .filter(({ specifier, target }) =>
        target === undefined
          ? !(layer !== 'domain' && BUILTIN.test(specifier)) && !PACKAGES[layer].test(specifier)
          : layerOf(target) !== layer && !BELOW[layer].includes(layerOf(target)),
      )
      .map(({ specifier }) => `${path} imports ${specifier}`);
  });

const crossAdapterViolations = (files: readonly SourceFile[]): string[] =>
  files.flatMap(({ path, imports }) => {
    const own = adapterOf(path);
    if (own === undefined) return [];
    return imports
      .filter(({ target }) => target !== undefined && adapterOf(target) !== undefined && adapterOf(target) !== own)
      .filter(({ target }) => !SHARED_ADAPTERS.includes(adapterOf(target!)!))
      .map(({ specifier }) => `${path} imports ${specifier}`);
  });

/** The adapters whose machinery lives in a `kit/` folder beside one folder per feature. */
const KITS = ['adapters/http', 'adapters/console'];

/**
 * A kit (the HTTP route kit, the console's router, layout and forms) is the machinery every feature
 * uses: it imports none of them, nor what composes them.
 */
const kitViolations = (files: readonly SourceFile[]): string[] =>
  files.flatMap(({ path, imports }) => {
    const adapter = KITS.find((root) => path.startsWith(`${root}/kit/`));
    if (adapter === undefined) return [];
    return imports
      .filter(({ target }) => target !== undefined && target.startsWith(`${adapter}/`) && !target.startsWith(`${adapter}/kit/`))
      .map(({ specifier }) => `${path} imports ${specifier}`);
  });

const fake = (path: string, specifier: string, names: string[] = []): SourceFile => ({
  path,
  imports: [{ specifier, names, target: specifier.startsWith('.') ? relative(SRC, resolve(SRC, dirname(path), specifier)) : undefined }],
});

describe('architecture: the dependency rule', () => {
  const files: SourceFile[] = filesUnder(SRC).map((file) => ({ path: relative(SRC, file).replace(/\.ts$/, ''), imports: importsOf(file) }));

  it('reads the imports of every layer', () => {
    for (const layer of Object.keys(BELOW))
      expect(
        files.some((f) => layerOf(f.path) === layer),
        layer,
      ).to.equal(true);
    expect(files.flatMap((f) => f.imports).length).to.be.greaterThan(200);
  });

  it('points every import down: a layer imports itself, the layers below it, and its allowed packages', () => {
    expect(downwardViolations(files)).to.deep.equal([]);
  });

  it('keeps adapters of one technology out of another: only the system adapters are shared', () => {
    expect(crossAdapterViolations(files)).to.deep.equal([]);
  });

  it('keeps each kit free of features: adapters/http/kit and adapters/console/kit import nothing of their adapter outside them', () => {
    for (const root of KITS)
      expect(
        files.some((f) => f.path.startsWith(`${root}/kit/`)),
        root,
      ).to.equal(true);
    expect(kitViolations(files)).to.deep.equal([]);
  });

  it('keeps the browser tracking script apart: browser/ imports nothing (no dependencies, no modules), and src/ does not import it', () => {
    // The script runs in shops' pages, not in the service: the service serves its built file and
    // never loads its code, so it belongs to no layer.
    const browserFiles = filesUnder(join(ROOT, 'browser'));
    expect(browserFiles).to.have.length.greaterThan(0);
    expect(
      browserFiles.flatMap((file) => importsOf(file).map(({ specifier }) => `${relative(ROOT, file)} imports ${specifier}`)),
    ).to.deep.equal([]);
    const intoBrowser = files.flatMap(({ path, imports }) =>
      imports.filter(({ target }) => target?.startsWith('../browser')).map(({ specifier }) => `${path} imports ${specifier}`),
    );
    expect(intoBrowser).to.deep.equal([]);
  });

  it('would catch each kind of violation', () => {
    expect(downwardViolations([fake('adapters/mongodb/x', '../../bootstrap/config')])).to.have.length(1);
    expect(downwardViolations([fake('domain/order', '../application/ports/clock')])).to.have.length(1);
    expect(downwardViolations([fake('domain/order', 'node:crypto')])).to.have.length(1);
    expect(downwardViolations([fake('application/x', 'mongodb')])).to.have.length(1);
    expect(downwardViolations([fake('bootstrap/x', '../adapters/http/app')])).to.deep.equal([]);
    expect(crossAdapterViolations([fake('adapters/http/x', '../memory/in-memory-storage')])).to.have.length(1);
    expect(crossAdapterViolations([fake('adapters/memory/x', '../system/base62')])).to.deep.equal([]);
    expect(downwardViolations([fake('application/x', 'tsyringe')])).to.have.length(1);
    expect(downwardViolations([fake('adapters/http/x', 'tsyringe')])).to.have.length(1);
    expect(downwardViolations([fake('adapters/http/x', 'reflect-metadata')])).to.have.length(1);
    expect(downwardViolations([fake('bootstrap/composition', 'tsyringe')])).to.deep.equal([]);
    expect(kitViolations([fake('adapters/http/kit/route', '../operations/ops-routes')])).to.have.length(1);
    expect(kitViolations([fake('adapters/http/kit/openapi/document', '../json-schema')])).to.deep.equal([]);
    expect(kitViolations([fake('adapters/http/orders/order-routes', '../kit/route')])).to.deep.equal([]);
    expect(kitViolations([fake('adapters/console/kit/layout', '../overview/overview-page')])).to.have.length(1);
    expect(kitViolations([fake('adapters/console/kit/router', '../console')])).to.have.length(1);
    expect(kitViolations([fake('adapters/console/kit/router', './answers')])).to.deep.equal([]);
    expect(kitViolations([fake('adapters/console/reports/reports-pages', '../kit/router')])).to.deep.equal([]);
  });
});
