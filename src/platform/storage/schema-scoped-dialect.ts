import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Kysely's PostgreSQL introspector reads every schema of the database and calls functions that look each
 * one up by name (has_schema_privilege, pg_get_serial_sequence). When another client drops a schema while
 * that query runs, it fails with 'schema "…" does not exist' for a schema that is not even ours, and the
 * migration (run at every start, and by the migrator to find its own tables) fails with it. Other
 * applications, or other Parapet deployments, may share the database; only our schema is read here.
 */
export class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return [{ name: this.schema }];
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const rows = (
      await sql<{
        table: string;
        kind: string;
        column: string;
        type: string;
        nullable: string;
        default: string | null;
        identity: string;
      }>`select c.table_name as "table", t.table_type as kind, c.column_name as "column",
            c.udt_name as type, c.is_nullable as nullable, c.column_default as "default",
            c.is_identity as identity
          from information_schema.columns c
          join information_schema.tables t
            on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = ${this.schema}
          order by c.table_name, c.ordinal_position`.execute(this.db)
    ).rows;
    const tables = new Map<string, { isView: boolean; columns: ColumnMetadata[] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && MIGRATION_TABLES.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) {
        table = { isView: r.kind === 'VIEW', columns: [] };
        tables.set(r.table, table);
      }
      table.columns.push({
        name: r.column,
        dataType: r.type,
        isAutoIncrementing: r.identity === 'YES' || (r.default ?? '').startsWith('nextval('),
        isNullable: r.nullable === 'YES',
        hasDefaultValue: r.default !== null,
      });
    }
    return [...tables].map(([name, t]) => ({ name, schema: this.schema, ...t }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect whose introspection (and so whose migrator) sees only `schema`. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db, this.schema);
  }
}
