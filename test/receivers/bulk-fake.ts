import { type FakeHttp, type RecordedRequest, type Reply, startFakeHttp } from './fake-http.js';

export interface BulkFake extends FakeHttp {
  /** index name → document id → document. */
  indices: Map<string, Map<string, Record<string, unknown>>>;
  templates: Map<string, Record<string, unknown>>;
  /** Ids whose next create answers 429 (es_rejected_execution_exception), once each. */
  throttleIds: Set<string>;
  pipelines: string[];
}

/**
 * Elasticsearch/OpenSearch `_bulk` contract: checks the Authorization header, requires
 * application/x-ndjson and a trailing newline, parses action/document pairs, answers per item (201 created,
 * 409 on a duplicate create _id, scripted 429) with `errors` set when any item failed, rejects index names
 * that are not lower case, stores templates, and records ?pipeline=. The Elastic flavour sends
 * X-Elastic-Product like the real server.
 */
export async function startBulkFake(
  flavour: 'elasticsearch' | 'opensearch',
  authorization: string,
): Promise<BulkFake> {
  const indices = new Map<string, Map<string, Record<string, unknown>>>();
  const templates = new Map<string, Record<string, unknown>>();
  const throttleIds = new Set<string>();
  const pipelines: string[] = [];
  const product: Record<string, string> =
    flavour === 'elasticsearch' ? { 'x-elastic-product': 'Elasticsearch' } : {};
  const err = (status: number, type: string, reason: string): Reply => ({
    status,
    body: { error: { type, reason }, status },
    headers: product,
  });

  const handle = (req: RecordedRequest): Reply => {
    if (req.headers['authorization'] !== authorization) {
      return {
        ...err(401, 'security_exception', 'unable to authenticate user'),
        headers: { ...product, 'www-authenticate': 'Basic' },
      };
    }
    if (req.method === 'GET' && req.path === '/') {
      return {
        status: 200,
        body: {
          name: 'fake',
          version: { number: flavour === 'elasticsearch' ? '8.15.0' : '2.17.0', distribution: flavour },
        },
        headers: product,
      };
    }
    const tpl = /^\/_index_template\/([^/]+)$/.exec(req.path);
    if (tpl && req.method === 'PUT') {
      templates.set(tpl[1]!, JSON.parse(req.text) as Record<string, unknown>);
      return { status: 200, body: { acknowledged: true }, headers: product };
    }
    if (req.method !== 'POST' || !/^\/(?:[^/]+\/)?_bulk$/.test(req.path))
      return err(404, 'not_found', req.path);
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-ndjson')) {
      return err(406, 'media_type_header_exception', 'Content-Type header is not supported');
    }
    if (!req.text.endsWith('\n'))
      return err(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
    const pipeline = req.query.get('pipeline');
    if (pipeline) pipelines.push(pipeline);
    const lines = req.text.slice(0, -1).split('\n');
    if (lines.length % 2 !== 0) return err(400, 'illegal_argument_exception', 'action without source');
    const items: Record<string, unknown>[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i += 2) {
      let action: Record<string, { _index?: string; _id?: string }>;
      let doc: Record<string, unknown>;
      try {
        action = JSON.parse(lines[i]!) as typeof action;
        doc = JSON.parse(lines[i + 1]!) as Record<string, unknown>;
      } catch {
        return err(400, 'x_content_parse_exception', `malformed line ${i + 1}`);
      }
      const [op, meta] = Object.entries(action)[0] ?? [];
      const index = meta?._index ?? '';
      const id = meta?._id ?? `auto-${i}`;
      const item = (status: number, extra: Record<string, unknown> = {}) => {
        if (status >= 300) errors = true;
        items.push({ [op ?? 'create']: { _index: index, _id: id, status, ...extra } });
      };
      if (op !== 'create' && op !== 'index')
        return err(400, 'illegal_argument_exception', `unsupported action ${op}`);
      if (index === '' || index !== index.toLowerCase() || /[\\/*?"<>| ,#]/.test(index)) {
        item(400, {
          error: { type: 'invalid_index_name_exception', reason: `Invalid index name [${index}]` },
        });
        continue;
      }
      if (throttleIds.delete(id)) {
        item(429, { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' } });
        continue;
      }
      const docs = indices.get(index) ?? new Map<string, Record<string, unknown>>();
      indices.set(index, docs);
      if (op === 'create' && docs.has(id)) {
        item(409, {
          error: {
            type: 'version_conflict_engine_exception',
            reason: `[${id}]: version conflict, document already exists`,
          },
        });
        continue;
      }
      docs.set(id, doc);
      item(201, { result: 'created' });
    }
    return { status: 200, body: { took: 1, errors, items }, headers: product };
  };
  const fake = await startFakeHttp(handle);
  return Object.assign(fake, { indices, templates, throttleIds, pipelines });
}
