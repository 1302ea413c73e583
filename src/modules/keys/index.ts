export { KEY_KINDS, KEY_SCOPES, createKeysService, holdsServiceSecret } from './keys.service.js';
export type { ApiKey, KeyEventFn, KeyKind, KeyScope, KeysService } from './keys.service.js';
export { keysRoutes } from './keys.routes.js';
export { DEVICE_TOKEN_PREFIX, createDeviceTokens, isDeviceTokenShape } from './device-tokens.js';
export type { DeviceIdentity, DeviceTokens } from './device-tokens.js';
