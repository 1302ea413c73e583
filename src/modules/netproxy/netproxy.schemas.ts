import { Type } from 'typebox';
import { MAX_CLIENT_NETWORKS } from './networks.js';
import type { ErrorFormat, Uninspected } from './settings.js';

export const NetproxySettingsSchema = Type.Object(
  {
    clientNetworks: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: MAX_CLIENT_NETWORKS,
      description:
        'IPv4/IPv6 networks (CIDR; a bare address is one host) whose clients belong to this organization when the ' +
        'transparent proxy gets a request without X-Service-Key; stored normalized (host bits cleared)',
    }),
    uninspected: Type.Optional(
      Type.Union([Type.Literal('forward'), Type.Literal('refuse')], {
        description:
          "What the network proxy does with a request body sent to an operation it does not inspect: 'forward' " +
          "(the default; sent as it came, in clear) or 'refuse' (403, nothing sent; file uploads included). Requests " +
          'without a body are forwarded either way. Left out of a PUT, the current value stays.',
      }),
    ),
    errorFormat: Type.Optional(
      Type.Union([Type.Literal('spec'), Type.Literal('native')], {
        description:
          "The body of the network proxy's own errors (authentication aside: 400, 403, 413, 415, 429 raised by Parapet, " +
          "not relayed from the provider): 'spec' (the default; the Error body of every endpoint) or 'native' (the " +
          "provider's error shape, which its SDK shows the message of, Parapet's code inside). Left out of a PUT, the " +
          'current value stays.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type NetproxySettings = {
  clientNetworks: string[];
  uninspected?: Uninspected;
  errorFormat?: ErrorFormat;
};
