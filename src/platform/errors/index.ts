export { AppError, ERROR_STATUS, errorBody, invalid, notFound } from './app-error.js';
export type { ErrorBody, ErrorCode } from './app-error.js';
