import type { Kysely, Selectable } from 'kysely';
import type { VerifierDatabase } from '../../platform/storage/index.js';

/**
 * The verification server's store. It serves one organization (the one that runs the container), so its
 * rows carry no org_id: isolation is the container itself.
 */
export type VerifierDb = Kysely<VerifierDatabase>;
export type SourceRow = Selectable<VerifierDatabase['verifier_sources']>;
export type DocumentRow = Selectable<VerifierDatabase['verifier_documents']>;
export type KeyRow = Selectable<VerifierDatabase['verifier_keys']>;

export interface NewDocument {
  document: DocumentRow;
  passages: string[];
}

/** One indexed passage with what a claim needs to cite it. */
export interface PassageRecord {
  text: string;
  document_id: string;
  source_id: string;
  citation: string;
  /** The passage's place in its document. */
  position: number;
}

const PASSAGE_PAGE = 5_000;

export function createVerifierRepo(db: VerifierDb) {
  return {
    async insertKey(row: KeyRow): Promise<void> {
      await db.insertInto('verifier_keys').values(row).execute();
    },
    async keyByHash(hash: string): Promise<KeyRow | undefined> {
      return db.selectFrom('verifier_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
    },
    async listKeys(): Promise<KeyRow[]> {
      return db.selectFrom('verifier_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async revokeKey(id: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('verifier_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async insertSource(row: SourceRow): Promise<void> {
      await db.insertInto('verifier_sources').values(row).execute();
    },
    async getSource(id: string): Promise<SourceRow | undefined> {
      return db.selectFrom('verifier_sources').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async listSources(): Promise<SourceRow[]> {
      return db.selectFrom('verifier_sources').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async updateSource(id: string, patch: Partial<Omit<SourceRow, 'id'>>): Promise<void> {
      await db.updateTable('verifier_sources').set(patch).where('id', '=', id).execute();
    },
    async deleteSource(id: string): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        // Explicit child deletes: SQLite enforces the cascade only with foreign keys on, PostgreSQL always.
        await tx.deleteFrom('verifier_passages').where('source_id', '=', id).execute();
        await tx.deleteFrom('verifier_documents').where('source_id', '=', id).execute();
        const r = await tx.deleteFrom('verifier_sources').where('id', '=', id).executeTakeFirst();
        return Number(r.numDeletedRows) > 0;
      });
    },
    /** Sources whose scheduled refresh is due, oldest first. */
    async dueSources(nowIso: string): Promise<SourceRow[]> {
      return db
        .selectFrom('verifier_sources')
        .selectAll()
        .where('refresh_interval', '!=', 'manual')
        .where('next_refresh_at', '<=', nowIso)
        .orderBy('next_refresh_at')
        .execute();
    },

    async documentsOf(sourceId: string): Promise<DocumentRow[]> {
      return db.selectFrom('verifier_documents').selectAll().where('source_id', '=', sourceId).execute();
    },
    /**
     * One refresh's outcome in one transaction: documents not kept are removed with their passages, new
     * or changed ones are written, and the counts follow. A failed refresh leaves the previous index.
     */
    async saveIndex(
      sourceId: string,
      keep: string[],
      added: NewDocument[],
      newId: () => string,
    ): Promise<{ documents: number; passages: number }> {
      return db.transaction().execute(async (tx) => {
        const old = await tx
          .selectFrom('verifier_documents')
          .select('id')
          .where('source_id', '=', sourceId)
          .execute();
        const kept = new Set(keep);
        const drop = old.map((d) => d.id).filter((id) => !kept.has(id));
        for (let i = 0; i < drop.length; i += 500) {
          const chunk = drop.slice(i, i + 500);
          await tx.deleteFrom('verifier_passages').where('document_id', 'in', chunk).execute();
          await tx.deleteFrom('verifier_documents').where('id', 'in', chunk).execute();
        }
        for (const d of added) {
          await tx.insertInto('verifier_documents').values(d.document).execute();
          const rows = d.passages.map((text, position) => ({
            id: newId(),
            source_id: sourceId,
            document_id: d.document.id,
            position,
            text,
          }));
          for (let i = 0; i < rows.length; i += 200)
            await tx
              .insertInto('verifier_passages')
              .values(rows.slice(i, i + 200))
              .execute();
        }
        const docs = await tx
          .selectFrom('verifier_documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('source_id', '=', sourceId)
          .executeTakeFirstOrThrow();
        const passages = await tx
          .selectFrom('verifier_passages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('source_id', '=', sourceId)
          .executeTakeFirstOrThrow();
        return { documents: Number(docs.n), passages: Number(passages.n) };
      });
    },
    /** Every passage of every source, in a stable order, read in pages to bound the statement size. */
    async *allPassages(): AsyncGenerator<PassageRecord[]> {
      let after = '';
      for (;;) {
        const page = await db
          .selectFrom('verifier_passages as p')
          .innerJoin('verifier_documents as d', 'd.id', 'p.document_id')
          .select(['p.id', 'p.text', 'p.document_id', 'p.source_id', 'p.position', 'd.citation'])
          .where('p.id', '>', after)
          .orderBy('p.id')
          .limit(PASSAGE_PAGE)
          .execute();
        if (page.length === 0) return;
        yield page;
        after = page[page.length - 1]!.id;
      }
    },

    async getSetting(name: string): Promise<string | undefined> {
      const r = await db
        .selectFrom('verifier_settings')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirst();
      return r?.value;
    },
    async setSetting(name: string, value: string, at: string): Promise<void> {
      await db
        .insertInto('verifier_settings')
        .values({ name, value, updated_at: at })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at }))
        .execute();
    },
  };
}

export type VerifierRepo = ReturnType<typeof createVerifierRepo>;
