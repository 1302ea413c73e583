import type { SourceType } from '../verifier.schemas.js';
import { readApi } from './api.js';
import { readDatabase } from './database.js';
import { readFileSource } from './file.js';
import type { ConnectorDeps, ConnectorResult, PreviousDocument, SourceTarget } from './types.js';
import { crawlWebsite } from './website.js';

export { databaseKind, redactConnection } from './database.js';
export { isSupportedFile, parseCsv, parseFile, SUPPORTED_FILES } from './file.js';
export { checkLocalFile, LocalFileProblem, localPath, type OwnData } from './local-file.js';
export { normalizeUrl, parseAllowedHost } from './website.js';
export type {
  ConnectorDeps,
  ConnectorResult,
  FetchedDocument,
  PreviousDocument,
  SourceTarget,
} from './types.js';
export { SourceError } from './types.js';

export function readSource(
  type: SourceType,
  target: SourceTarget,
  previous: PreviousDocument[],
  deps: ConnectorDeps,
): Promise<ConnectorResult> {
  switch (type) {
    case 'website':
      return crawlWebsite(target, previous, deps);
    case 'api':
      return readApi(target, deps);
    case 'file':
      return readFileSource(target, deps.own);
    case 'database':
      return readDatabase(target, deps);
  }
}
