// Every package declares what it imports, and packages agree on the version of each shared dependency:
// a production install (`npm ci --omit=dev`) gets only `dependencies`, and hoisting must not hide a
// missing declaration.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

const root = new URL('../../', import.meta.url).pathname;
const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const rootManifest = readManifest(root);
const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));

function sourceFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return /\.(m?ts|tsx)$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) =>
    name === 'node_modules' || name === 'dist' ? [] : sourceFiles(join(path, name)),
  );
}

/** Package names a file imports: `{ name, typeOnly }` for every static, dynamic or re-export specifier. */
function importsOf(file: string): { name: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .filter(({ specifier }) => !builtinModules.includes(specifier.split('/')[0]!))
    .map(({ specifier, typeOnly }) => {
      const parts = specifier.split('/');
      return { name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!, typeOnly };
    });
}

/** Code node runs in production; browser code (page client, web clients) is bundled at build time. */
const runsOnNode = (file: string) =>
  (/\/packages\/(server-kit|agent|manager|translator)\/(src|migrations)\//.test(file) &&
    !/\/src\/testing\//.test(file)) ||
  /\/packages\/page-client\/(bundle|prebuilt)\.ts$/.test(file);

describe('declared dependencies', () => {
  it.each(packages.map((dir) => [dir.split('/').pop()!, dir]))(
    '%s imports only what it declares',
    (_name, dir) => {
      const manifest = readManifest(dir);
      const runtime = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
      const development = new Set([
        ...runtime,
        ...Object.keys(manifest.devDependencies ?? {}),
        ...Object.keys(rootManifest.devDependencies ?? {}),
      ]);
      const undeclared = sourceFiles(dir).flatMap((file) =>
        importsOf(file)
          .filter(({ name, typeOnly }) => !(runsOnNode(file) && !typeOnly ? runtime : development).has(name))
          .map(({ name }) => `${file.slice(dir.length + 1)}: ${name}`),
      );
      expect([...new Set(undeclared)]).toEqual([]);
    },
  );

  it('one version of each dependency across the packages', () => {
    const versions = new Map<string, Set<string>>();
    for (const manifest of [rootManifest, ...packages.map(readManifest)]) {
      for (const [name, version] of Object.entries({
        ...manifest.dependencies,
        ...manifest.devDependencies,
      })) {
        versions.set(name, (versions.get(name) ?? new Set()).add(version));
      }
    }
    const disagreeing = [...versions]
      .filter(([, set]) => set.size > 1)
      .map(([name, set]) => `${name}: ${[...set].join(', ')}`);
    expect(disagreeing).toEqual([]);
  });
});
