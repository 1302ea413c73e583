// Public surface of the web module: serving the dashboard app (web/) from the API server.
export { CONTENT_SECURITY_POLICY, WEB_DIST, webRoutes } from './web.routes.js';
