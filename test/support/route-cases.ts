import type { Tenant, TestServer } from './harness.js';

/**
 * One entry per authenticated route. routes.test.ts runs the shared checks on each and fails when a route
 * of the server has no entry here, so no route escapes them.
 */
export interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route pattern as registered (with :params). */
  route: string;
  auth: 'apiKey' | 'serviceKey' | 'session' | 'endpoint';
  /**
   * Key kinds accepted (apiKey routes), roles accepted (session routes), or credentials accepted
   * (endpoint routes: 'device' for a device token, 'al', 'sw'); the first is used for the happy path.
   */
  allowed: string[];
  /** Builds a concrete request: path, and a valid body; may create resources in the tenant first. */
  happy(
    t: TestServer,
    tenant: Tenant,
  ): Promise<{ path: string; body?: unknown; form?: FormData; headers?: Record<string, string> }>;
  happyStatus: number;
  /** A request with a body or parameter the route must refuse with 400 (omit for routes with no input). */
  bad?(t: TestServer, tenant: Tenant): Promise<{ path: string; body?: unknown; form?: FormData }>;
  /** A path naming a resource of `owner` that `other` must not see (404). */
  foreign?(t: TestServer, owner: Tenant): Promise<{ path: string; body?: unknown }>;
}

export const ROUTE_CASES: RouteCase[] = [];

export function addRouteCases(...cases: RouteCase[]): void {
  ROUTE_CASES.push(...cases);
}
