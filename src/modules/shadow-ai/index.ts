export { CATALOG_FILE, createDomainIndex, loadCatalog, normalizeDomain, riskLevelOf } from './catalog.js';
export type { Catalog, CatalogEntry } from './catalog.js';
export type { ShadowAiEventType, ShadowAiPublish } from './shadow-ai.events.js';
export { shadowAiRoutes } from './shadow-ai.routes.js';
export { createShadowAiService, serviceLimit } from './shadow-ai.service.js';
export type { ShadowAiService } from './shadow-ai.service.js';
