/**
 * Hostile outbound targets, for the tests of every kind of user-supplied URL (provider base URLs, webhooks,
 * SIEM integrations, the crawler). Every entry must be refused at configuration with private targets not
 * allowed. `{port}` is replaced by a port of the test's choosing, so that a guard that let one through
 * would reach a server the test watches.
 */
export const HOSTILE_TARGET_URLS: readonly string[] = [
  // loopback in every IPv4 notation WHATWG URL accepts
  'https://127.0.0.1:{port}/v1',
  'https://127.1:{port}/',
  'https://0x7f000001:{port}/',
  'https://2130706433:{port}/',
  'https://0177.0.0.1:{port}/',
  'https://0x7f.0x0.0x0.0x1:{port}/',
  'https://017700000001:{port}/',
  'https://127.000.000.001:{port}/',
  'https://%31%32%37.0.0.1:{port}/',
  'https://１２７.0.0.1:{port}/',
  // loopback over IPv6, mapped, compatible, NAT64 and 6to4
  'https://[::1]:{port}/',
  'https://[0:0:0:0:0:0:0:1]:{port}/',
  'https://[::ffff:127.0.0.1]:{port}/',
  'https://[::ffff:7f00:1]:{port}/',
  'https://[::127.0.0.1]:{port}/',
  'https://[64:ff9b::7f00:1]:{port}/',
  'https://[2002:7f00:1::]:{port}/',
  // loopback names, case and trailing dots
  'https://localhost:{port}/',
  'https://LOCALHOST:{port}/',
  'https://localhost.:{port}/',
  'https://LOCALHOST.:{port}/',
  'https://localhost..:{port}/',
  'https://loc%61lhost:{port}/',
  'https://api.localhost:{port}/',
  // cloud metadata
  'https://169.254.169.254/latest/meta-data/',
  'https://0xa9fea9fe/',
  'https://2852039166/',
  'https://[::ffff:169.254.169.254]/',
  'https://[fd00:ec2::254]/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://METADATA.google.internal./',
  'https://100.100.100.200/',
  'https://192.0.0.192/',
  // link-local, private, CGNAT, unspecified, multicast, broadcast, reserved
  'https://169.254.1.1/',
  'https://[fe80::1]/',
  'https://10.0.0.1/',
  'https://10.255.255.255/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://0.0.0.0:{port}/',
  'https://0:{port}/',
  'https://[::]:{port}/',
  'https://224.0.0.1/',
  'https://[ff02::1]/',
  'https://255.255.255.255/',
  'https://[fc00::1]/',
  'https://198.18.0.1/',
  // private-network names
  'https://intranet/',
  'https://printer.local/',
  'https://db.internal/',
  'https://router.home.arpa/',
  // credentials, schemes, malformed
  'https://user:pw@api.example.com/',
  'https://user@api.example.com/',
  'https://:pw@api.example.com/',
  'ftp://api.example.com/',
  'file:///etc/passwd',
  'gopher://127.0.0.1:70/',
  'javascript:alert(1)',
  'data:text/plain,hi',
  'ws://api.example.com/',
  '//api.example.com/v1',
  'api.example.com',
  'https://',
  'https://api.example.com\\@127.0.0.1/',
  'https://127.0.0.1 /',
  'https://api.example.com/\u0000',
];

/** Plain http to a public host: refused for the kinds whose requests carry a secret. */
export const PLAIN_HTTP_URLS: readonly string[] = ['http://api.example.com/v1', 'HTTP://api.example.com/'];

/** Names that pass the configuration check but resolve (in the tests) to refused addresses. */
export const REBINDING_NAMES: ReadonlyArray<[string, string]> = [
  ['loopback.rebind.example', '127.0.0.1'],
  ['v6.rebind.example', '::1'],
  ['mapped.rebind.example', '::ffff:127.0.0.1'],
  ['metadata.rebind.example', '169.254.169.254'],
  ['private.rebind.example', '10.1.2.3'],
  ['zero.rebind.example', '0.0.0.0'],
];

export const withPort = (url: string, port: number) => url.replaceAll('{port}', String(port));
