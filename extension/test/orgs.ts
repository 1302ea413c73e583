import type { EndpointConfig } from '../src/shared/policy.js';

// Two organizations' configs for the enrollment tests: each blocks its own chat service, so the block rules
// and the AI-site scripts in force say whose policy the device applies.

export function orgConfig(org: string, configVersion: number): EndpointConfig {
  return {
    configVersion,
    organization: { id: org, name: `${org} Ltd` },
    policy: {
      enforcement: 'block',
      rules: {
        aiServices: { mode: 'blocklist', blocked: [{ domain: `chat.${org.replace(/_/g, '-')}.test` }] },
      },
    },
    settings: { heartbeatIntervalSeconds: 120 },
  };
}

/** GET /api/v1/endpoint/config's answer. */
export function configAnswer(config: EndpointConfig): Response {
  return Response.json(config, { headers: { etag: `"${config.organization?.id}-${config.configVersion}"` } });
}

/** The server's answer to a token it no longer knows. */
export function reenrollAnswer(): Response {
  return Response.json(
    {
      error: 'unauthorized',
      message: 'The device token is unknown or revoked; enroll the device again.',
      statusCode: 401,
      reenroll: true,
    },
    { status: 401 },
  );
}
