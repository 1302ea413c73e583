import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireBinary } from './require-binary.js';

export interface TestPki {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}

/**
 * A throw-away CA and a server certificate for "localhost"/127.0.0.1, made with openssl in `dir`.
 * Valid for two days; nothing is written outside `dir`.
 */
export function makeTestPki(dir: string): TestPki {
  const openssl = requireBinary('openssl');
  mkdirSync(dir, { recursive: true });
  const p = (f: string) => join(dir, f);
  const run = (args: string[]) =>
    execFileSync(openssl, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=parapet-test-ca',
    '-keyout',
    p('ca-key.pem'),
    '-out',
    p('ca.pem'),
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    p('server-key.pem'),
    '-out',
    p('server.csr'),
  ]);
  writeFileSync(p('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  run([
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca-key.pem'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    p('ext.cnf'),
    '-out',
    p('server.pem'),
  ]);
  return {
    dir,
    caFile: p('ca.pem'),
    certFile: p('server.pem'),
    keyFile: p('server-key.pem'),
    caPem: readFileSync(p('ca.pem'), 'utf8'),
    certPem: readFileSync(p('server.pem'), 'utf8'),
    keyPem: readFileSync(p('server-key.pem'), 'utf8'),
  };
}
