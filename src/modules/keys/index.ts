export { KEY_KINDS, createKeysService } from './keys.service.js';
export type { ApiKey, KeyEventFn, KeyKind, KeysService } from './keys.service.js';
export { keysRoutes } from './keys.routes.js';
