export { createDiskStore, createS3Store } from './proof-store.js';
export type { ProofStore, S3Settings } from './proof-store.js';
export type { ProofEventType, ProofPublish } from './proofs.events.js';
export { proofsRoutes } from './proofs.routes.js';
export { RETENTION_DAYS } from './proofs.schemas.js';
export { createProofsService } from './proofs.service.js';
export type { ProofsService } from './proofs.service.js';
