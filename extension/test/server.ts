// The repository's test server (test/support/harness.ts), loaded without its types: they are written
// against Node's fetch typings, and these tests compile with the DOM library for the page-side code.

export interface TestResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes, read field by field in the tests
  body: any;
  text: string;
}
export interface Tenant {
  org: { id: string; name: string };
  sw: string;
  al: string;
  /** a sw key of the admin scope: /api/saas/* and the administrators' routes by script */
  admin: string;
  session(role?: string): Promise<string>;
}
export interface TestServer {
  url: string;
  ctx: {
    // biome-ignore lint/suspicious/noExplicitAny: the Kysely instance, typed in the harness
    storage: { db: any };
    /** issues a licence (seats of the endpoint product) */
    licensing: {
      issue(input: {
        orgId: string;
        plan: string;
        seats: number;
        products: string[];
        expiresAt: string;
      }): Promise<unknown>;
    };
  };
  tenant(input?: { plan?: string; name?: string }): Promise<Tenant>;
  request(
    method: string,
    path: string,
    init?: { body?: unknown; key?: string; cookie?: string; form?: FormData },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

const harness = '../../test/support/harness.js';

export async function startTestServer(): Promise<TestServer> {
  const mod = (await import(harness)) as { startTestServer(): Promise<TestServer> };
  return mod.startTestServer();
}
