import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

/** The rule ids ESLint reports for `code` as if it were the file at `path`. */
async function ruleIds(path: string, code: string): Promise<(string | null)[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: `${root}${path}` });
  return result!.messages.map((message) => message.ruleId);
}

describe('application code and migrations', () => {
  it('fails lint for a migration imported by application code', async () => {
    expect(
      await ruleIds(
        'packages/manager/src/site-config/x.ts',
        "import { identity } from '../../migrations/001_identity.ts';\nexport const x = identity;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIds(
        'packages/translator/src/x.ts',
        "import { translatorMigrations } from '../migrations/index.ts';\nexport const x = translatorMigrations;\n",
      ),
    ).toContain('no-restricted-imports');
  });

  it('allows the one registry module (src/db/store.ts) and tests', async () => {
    const code =
      "import { managerMigrations } from '../../migrations/index.ts';\nexport const x = managerMigrations;\n";
    expect(await ruleIds('packages/manager/src/db/store.ts', code)).not.toContain('no-restricted-imports');
    expect(await ruleIds('packages/manager/test/x.test.ts', code)).not.toContain('no-restricted-imports');
  });
});
