// CI's check that the split of the suite between its passes lost nothing: every test file of the
// repository (unit specs, the main project, the real-engine tests) passed at least one test in some
// pass, and every file of the PostgreSQL list did so on PostgreSQL. A vitest project, an include pattern
// or a skip condition dropped by mistake fails here, naming the files.
// Usage: every-file-ran.mjs SQLITE_REPORT.json POSTGRES_REPORT.json
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const [sqliteReport, postgresReport] = process.argv.slice(2);

/** The passed tests of a pass's report, as `file › full name` (its files and its tests). */
function passedIn(report) {
  const results = JSON.parse(readFileSync(report, 'utf8')).testResults.map((result) => ({
    // The SQLite pass ran in a fresh machine's clone: its paths start elsewhere.
    file: result.name.replace(/^.*?\/(?=(packages|scripts)\/)/, ''),
    passed: result.assertionResults.filter((test) => test.status === 'passed'),
  }));
  return {
    files: new Set(results.filter((result) => result.passed.length > 0).map((result) => result.file)),
    tests: results.flatMap(({ file, passed }) => passed.map((test) => `${file} › ${test.fullName}`)),
  };
}

/** The test files under `dir` whose names end with `suffix`, relative to the repository. */
const filesIn = (dir, suffix) =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)))
    .filter((file) => !file.includes('node_modules'));
const packages = readdirSync(join(root, 'packages'));
const everyFile = [
  ...packages.flatMap((name) =>
    existsSync(join(root, 'packages', name, 'test')) ? filesIn(`packages/${name}/test`, '.test.ts') : [],
  ),
  ...packages.flatMap((name) =>
    existsSync(join(root, 'packages', name, 'src')) ? filesIn(`packages/${name}/src`, '.spec.ts') : [],
  ),
  ...filesIn('scripts/test', '.test.ts'),
];
// The list's paths, read from its source (the host's Node.js does not load TypeScript).
const databasePass = [
  ...readFileSync(join(root, 'scripts/test/database-pass.ts'), 'utf8').matchAll(
    /'(packages\/[^']+\.test\.ts)'/g,
  ),
].map((match) => match[1]);
if (databasePass.length === 0) {
  console.log('read no test file from scripts/test/database-pass.ts: has its format changed?');
  process.exit(1);
}

// A pass that wrote no report did not end (its own output says why): naming each of its files would
// bury that under a page of names.
const missing = [sqliteReport, postgresReport].filter((report) => !existsSync(report));
if (missing.length > 0) {
  for (const report of missing) console.log(`no report ${report}: that pass did not end`);
  process.exit(1);
}
const sqlite = passedIn(sqliteReport);
const postgres = passedIn(postgresReport);
const nowhere = everyFile.filter((file) => !sqlite.files.has(file) && !postgres.files.has(file));
const notOnPostgres = databasePass.filter((file) => !postgres.files.has(file));
console.log(
  `${everyFile.length} test files: ${sqlite.files.size} passed tests on SQLite, ${postgres.files.size} on PostgreSQL`,
);
// The figure that may not fall as the passes change shape: the tests that passed in at least one pass.
const distinct = new Set([...sqlite.tests, ...postgres.tests]).size;
console.log(
  `${distinct} distinct tests passed (${sqlite.tests.length} on SQLite, ${postgres.tests.length} on PostgreSQL)`,
);
for (const file of nowhere) console.log(`ran in neither pass: ${file}`);
for (const file of notOnPostgres) console.log(`on the PostgreSQL list, but ran no test there: ${file}`);
process.exit(nowhere.length + notOnPostgres.length > 0 ? 1 : 0);
