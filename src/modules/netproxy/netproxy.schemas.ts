import { Type } from 'typebox';
import { MAX_CLIENT_NETWORKS } from './networks.js';

export const NetproxySettingsSchema = Type.Object(
  {
    clientNetworks: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: MAX_CLIENT_NETWORKS,
      description:
        'IPv4/IPv6 networks (CIDR; a bare address is one host) whose clients belong to this organization when the ' +
        'transparent proxy gets a request without X-Service-Key; stored normalized (host bits cleared)',
    }),
  },
  { additionalProperties: false },
);
export type NetproxySettings = { clientNetworks: string[] };
