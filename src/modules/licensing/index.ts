export { createLicensing } from './licensing.service.js';
export type { InvalidReason, LicenseStatus, LicenseView, Licensing } from './licensing.service.js';
export {
  LICENSE_PREFIX,
  LICENSE_PRODUCTS,
  decodeLicense,
  encodeLicense,
  licenseSecret,
} from './license-format.js';
export type { LicensePayload, LicenseProduct } from './license-format.js';
export { LicenseView as LicenseViewSchema, licensingRoutes } from './licensing.routes.js';
