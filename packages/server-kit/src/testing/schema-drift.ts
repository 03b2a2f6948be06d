import ts from 'typescript';
import { sql, type Kysely } from 'kysely';
import type { DbTarget } from '../db-admin.ts';
import { openMigrated } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** A column as the row types declare it or as the migrated database has it. */
export interface ColumnShape {
  nullable: boolean;
  /** The database fills it when an insert leaves it out (`Generated<…>` in the row types). */
  generated: boolean;
  kind: 'string' | 'number' | 'other';
}

export type TableShapes = Record<string, Record<string, ColumnShape>>;

function kindOf(checker: ts.TypeChecker, type: ts.Type): ColumnShape['kind'] {
  const members = type.isUnion() ? type.types : [type];
  const kinds = new Set(
    members
      .filter((member) => !(member.flags & ts.TypeFlags.Null))
      .map((member) =>
        member.flags & ts.TypeFlags.StringLike
          ? 'string'
          : member.flags & ts.TypeFlags.NumberLike
            ? 'number'
            : checker.typeToString(member),
      ),
  );
  const [only] = kinds;
  return kinds.size === 1 && (only === 'string' || only === 'number') ? only : 'other';
}

/**
 * The tables and columns the Kysely row types in `schemaFile` declare: every property of the interface
 * `dbInterface` is a table, every property of its type a column.
 */
export function declaredTables(schemaFile: string, dbInterface: string): TableShapes {
  const program = ts.createProgram([schemaFile], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(schemaFile);
  if (!source) throw new Error(`cannot read ${schemaFile}`);
  const declaration = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === dbInterface,
  );
  if (!declaration) throw new Error(`${schemaFile} declares no interface ${dbInterface}`);
  const tables: TableShapes = {};
  for (const table of checker.getTypeAtLocation(declaration).getProperties()) {
    const columns: Record<string, ColumnShape> = {};
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const type = checker.getTypeOfSymbol(column);
      const generated = type.aliasSymbol?.name === 'Generated';
      const value = generated ? type.aliasTypeArguments![0]! : type;
      const nullable = (value.isUnion() ? value.types : [value]).some(
        (member) => member.flags & ts.TypeFlags.Null,
      );
      columns[column.name] = { nullable, generated, kind: kindOf(checker, value) };
    }
    tables[table.name] = columns;
  }
  return tables;
}

const NUMBER_TYPES =
  /^(integer|int[248]?|bigint|smallint|real|float[48]?|double precision|numeric.*|serial.*)$/;
const STRING_TYPES = /^(text|varchar.*|character varying.*|char.*|bpchar|uuid|timestamptz?|date)$/;

/** SQLite's primary-key columns: NULL-able by a documented quirk unless declared NOT NULL; rows never hold one. */
async function sqlitePrimaryKeys(db: Kysely<unknown>, table: string): Promise<Set<string>> {
  const { rows } = await sql<{
    name: string;
  }>`select name from pragma_table_info(${table}) where pk > 0`.execute(db);
  return new Set(rows.map((row) => row.name));
}

/**
 * The tables and columns of the migrated database (`schema` on PostgreSQL), without the migration
 * bookkeeping tables named `<migrations>_migration…`.
 */
export async function migratedTables(
  db: Kysely<unknown>,
  migrations: string,
  schema?: string,
): Promise<TableShapes> {
  const tables: TableShapes = {};
  for (const table of await db.introspection.getTables()) {
    if (schema && table.schema !== schema) continue;
    if (table.name.startsWith(`${migrations}_migration`)) continue;
    const primaryKey = schema ? new Set<string>() : await sqlitePrimaryKeys(db, table.name);
    tables[table.name] = Object.fromEntries(
      table.columns.map((column) => {
        const type = column.dataType.toLowerCase();
        const kind = NUMBER_TYPES.test(type) ? 'number' : STRING_TYPES.test(type) ? 'string' : 'other';
        const nullable = column.isNullable && !primaryKey.has(column.name);
        const generated = column.hasDefaultValue || column.isAutoIncrementing;
        return [column.name, { nullable, generated, kind } satisfies ColumnShape];
      }),
    );
  }
  return tables;
}

/**
 * Where the row types and the database disagree, one line each: a table or column on one side only, a
 * column nullable on one side only, a `Generated` column without a default, or a string where the
 * database holds numbers (or the reverse). An empty list when they agree.
 */
export function schemaDrift(declared: TableShapes, migrated: TableShapes): string[] {
  const drift: string[] = [];
  for (const table of new Set([...Object.keys(declared), ...Object.keys(migrated)])) {
    const types = declared[table];
    const columns = migrated[table];
    if (!types || !columns) {
      drift.push(
        `${table}: ${types ? 'declared but not in the database' : 'in the database but not declared'}`,
      );
      continue;
    }
    for (const name of new Set([...Object.keys(types), ...Object.keys(columns)])) {
      const type = types[name];
      const column = columns[name];
      if (!type || !column) {
        drift.push(
          `${table}.${name}: ${type ? 'declared but not in the database' : 'in the database but not declared'}`,
        );
        continue;
      }
      if (type.nullable !== column.nullable) {
        drift.push(
          `${table}.${name}: ${type.nullable ? 'declared nullable, NOT NULL in the database' : 'declared not null, nullable in the database'}`,
        );
      }
      if (type.generated && !column.generated)
        drift.push(`${table}.${name}: declared Generated, but has no default`);
      if (type.kind !== 'other' && column.kind !== 'other' && type.kind !== column.kind) {
        drift.push(`${table}.${name}: declared ${type.kind}, the database holds ${column.kind}s`);
      }
    }
  }
  return drift;
}

/**
 * Migrates a fresh test database of the service (`target` for it) and compares it with the row types
 * `dbInterface` of `schemaFile` declares: the list of disagreements (see schemaDrift).
 */
export async function migratedSchemaDrift(
  target: (database: TestDatabase) => DbTarget,
  schemaFile: string,
  dbInterface: string,
): Promise<string[]> {
  const database = await createTestDatabase();
  try {
    const { options, set, name } = target(database);
    const migrated = await openMigrated<unknown>(options, set, name);
    try {
      return schemaDrift(
        declaredTables(schemaFile, dbInterface),
        await migratedTables(migrated.db, name, database.schema),
      );
    } finally {
      await migrated.close();
    }
  } finally {
    await database.drop();
  }
}
