// @peculiar/x509 resolves its algorithm classes through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { createPrivateKey, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { INTERCEPTED_HOSTS } from './hosts.js';

const crypto = webcrypto;
x509.cryptoProvider.set(crypto as never);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** Leaf certificates stay well under the 397 days browsers and Apple accept for a server certificate. */
const LEAF_DAYS = 30;
/** A cached leaf is issued again once less than this remains of it. */
const RENEW_BEFORE_MS = 2 * DAY_MS;

export interface CaFiles {
  /** PKCS #8 PEM of the CA's private key (kept 0600 on disk). */
  keyPem: string;
  /** The CA certificate (PEM): what devices install as a trusted root. */
  certPem: string;
}

// DER pieces of the name-constraints extension, which @peculiar/x509 has no class for.
function der(tag: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const n = body.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  const out = new Uint8Array(1 + len.length + n);
  out[0] = tag;
  out.set(len, 1);
  out.set(body, 1 + len.length);
  return out;
}
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * RFC 5280 name constraints: the CA may only vouch for the providers' host names and for no IP address,
 * so that its key, were it ever copied, could not impersonate any other site to the devices that trust it.
 */
function nameConstraints(): x509.Extension {
  const subtree = (name: Uint8Array) => der(0x30, name);
  const permitted = der(
    0xa0,
    concat(INTERCEPTED_HOSTS.map((h) => subtree(der(0x82, new TextEncoder().encode(h))))),
  );
  const excluded = der(
    0xa1,
    concat([subtree(der(0x87, new Uint8Array(8))), subtree(der(0x87, new Uint8Array(32)))]),
  );
  return new x509.Extension('2.5.29.30', true, der(0x30, concat([permitted, excluded])));
}

const serial = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive
  return Buffer.from(bytes).toString('hex');
};

/** A new CA key pair and self-signed certificate, valid for ten years from `now`. */
export async function createCa(name: string, now: Date): Promise<CaFiles> {
  const keys = (await crypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name.replace(/[,=+<>#;\\"]/g, ' ')}, O=Parapet network proxy`,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + 3650 * DAY_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      nameConstraints(),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'), certPem: cert.toString('pem') };
}

/** What a CA certificate says about itself, for `parapet proxy ca export` and the start-up line. */
export function describeCa(certPem: string): { subject: string; fingerprint256: string; validTo: string } {
  const c = new NodeX509(certPem);
  return { subject: c.subject.replace(/\n/g, ', '), fingerprint256: c.fingerprint256, validTo: c.validTo };
}

/**
 * Why a CA's two files cannot serve, or null: the certificate must be a CA certificate valid at `now` and
 * the key must be its key. A key of another CA (files from two `ca init` runs mixed up) started the
 * proxy and made every client refuse every leaf ("certificate signature failure"), and an expired CA
 * likewise: both are refused before anything listens. The messages name the files, never the key.
 */
export function caFilesProblem(files: CaFiles, now: Date): string | null {
  let cert: NodeX509;
  try {
    cert = new NodeX509(files.certPem);
  } catch {
    return 'ca.pem is not a PEM certificate';
  }
  if (!cert.ca) return 'ca.pem is not a CA certificate';
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(files.keyPem);
  } catch {
    return 'ca-key.pem is not a PEM private key';
  }
  if (!cert.checkPrivateKey(key))
    return 'ca-key.pem is not the private key of ca.pem (files of two CAs mixed up?)';
  if (Date.parse(cert.validTo) <= now.getTime()) return `ca.pem expired on ${cert.validTo}`;
  if (Date.parse(cert.validFrom) > now.getTime()) return `ca.pem is not valid before ${cert.validFrom}`;
  return null;
}

export interface LeafIssuer {
  /** The TLS context for a provider host name, issued on first use and cached until near its end. */
  contextFor(host: string): Promise<SecureContext>;
  /** Leaves issued so far (tests read it to prove the cache). */
  readonly issued: number;
}

/**
 * Issues leaf certificates for the intercepted host names under the CA. One leaf key pair serves every
 * leaf (as interception proxies commonly do): a certificate costs a signature, not a key generation.
 */
export async function createLeafIssuer(files: CaFiles, clock: () => Date): Promise<LeafIssuer> {
  const caCert = new x509.X509Certificate(files.certPem);
  const caKey = await crypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decode(files.keyPem)[0] as ArrayBuffer,
    ALG,
    false,
    ['sign'],
  );
  const leafKeys = (await crypto.subtle.generateKey(ALG, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const leafKeyPem = x509.PemConverter.encode(
    await crypto.subtle.exportKey('pkcs8', leafKeys.privateKey),
    'PRIVATE KEY',
  );
  const authorityKeyId = await x509.AuthorityKeyIdentifierExtension.create(caCert, false);
  const cache = new Map<string, { context: Promise<SecureContext>; renewAt: number }>();
  let issued = 0;

  async function issue(host: string, now: Date): Promise<SecureContext> {
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial(),
      subject: `CN=${host}`,
      issuer: caCert.subject,
      notBefore: new Date(now.getTime() - DAY_MS),
      notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
      publicKey: leafKeys.publicKey,
      signingKey: caKey,
      signingAlgorithm: ALG,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: host }]),
        authorityKeyId,
        await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey, false),
      ],
    });
    issued++;
    return createSecureContext({ key: leafKeyPem, cert: cert.toString('pem'), minVersion: 'TLSv1.2' });
  }

  return {
    get issued() {
      return issued;
    },
    contextFor(host: string) {
      const now = clock();
      const hit = cache.get(host);
      if (hit && hit.renewAt > now.getTime()) return hit.context;
      const context = issue(host, now);
      cache.set(host, { context, renewAt: now.getTime() + (LEAF_DAYS - 1) * DAY_MS - RENEW_BEFORE_MS });
      // A failed issue is not cached: the next handshake tries again.
      context.catch(() => cache.delete(host));
      return context;
    },
  };
}
