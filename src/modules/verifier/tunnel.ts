import { createHash } from 'node:crypto';
import net from 'node:net';
import ssh2 from 'ssh2';

const { Client, utils } = ssh2;
type Client = InstanceType<typeof ssh2.Client>;
import type { Sealer } from '../../platform/crypto/index.js';
import type { VerifierRepo } from './verifier.repo.js';

/** The ports the cloud's SSH endpoint may listen on (specification, "What the service does" 5). */
export const CLOUD_SSH_PORTS = [22, 443, 2222, 8022] as const;

/** What `parapet verifier register` stored: where the cloud is, which host key it must show, our keys. */
export interface Registration {
  host: string;
  port: number;
  username: string;
  /** OpenSSH fingerprint of the cloud's host key ("SHA256:…"); any other key is refused. */
  hostKeyFingerprint: string;
  /** Where the cloud's sshd forwards to (its permitopen): the cloud API. */
  apiHost: string;
  apiPort: number;
  privateKey: string;
  publicKey: string;
}

const SETTING = 'cloud_registration';

/** "SHA256:<base64 without padding>" of a raw SSH public key blob, as `ssh-keygen -lf` prints it. */
export function fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

export async function readRegistration(repo: VerifierRepo, sealer: Sealer): Promise<Registration | null> {
  const stored = await repo.getSetting(SETTING);
  return stored ? (JSON.parse(sealer.open(stored, SETTING)) as Registration) : null;
}

export interface RegisterInput {
  host: string;
  port: number;
  username: string;
  apiHost: string;
  apiPort: number;
  /** The fingerprint the cloud's operator published; when given, a different host key fails registration. */
  expectedFingerprint?: string;
  at: string;
}

/**
 * Registers the verifier with the cloud: an Ed25519 key pair of its own (kept, sealed, across
 * re-registrations), and the cloud's host key as it presents it now (checked against the published
 * fingerprint when one is given). The public key is what the cloud operator authorises.
 */
export async function register(
  repo: VerifierRepo,
  sealer: Sealer,
  input: RegisterInput,
): Promise<{ registration: Registration; authorized: boolean }> {
  const previous = await readRegistration(repo, sealer);
  const keys = previous
    ? { private: previous.privateKey, public: previous.publicKey }
    : utils.generateKeyPairSync('ed25519', { comment: 'parapet-verifier' });
  const { hostKey, authorized } = await probeHostKey(input.host, input.port, input.username, keys.private);
  const seen = fingerprint(hostKey);
  if (input.expectedFingerprint && input.expectedFingerprint !== seen)
    throw new Error(
      `the cloud presented host key ${seen}, not ${input.expectedFingerprint}: registration refused`,
    );
  const registration: Registration = {
    host: input.host,
    port: input.port,
    username: input.username,
    hostKeyFingerprint: seen,
    apiHost: input.apiHost,
    apiPort: input.apiPort,
    privateKey: keys.private,
    publicKey: keys.public,
  };
  await repo.setSetting(SETTING, sealer.seal(JSON.stringify(registration), SETTING), input.at);
  return { registration, authorized };
}

/** Connects once to read the host key; whether our key is already authorised is reported, not required. */
function probeHostKey(
  host: string,
  port: number,
  username: string,
  privateKey: string,
): Promise<{ hostKey: Buffer; authorized: boolean }> {
  return new Promise((resolve, reject) => {
    let hostKey: Buffer | null = null;
    const client = new Client();
    const done = (authorized: boolean) => {
      client.end();
      if (hostKey) resolve({ hostKey, authorized });
      else reject(new Error('the cloud did not present a host key'));
    };
    client.on('ready', () => done(true));
    client.on('error', (err) => (hostKey ? done(false) : reject(err)));
    client.connect({
      host,
      port,
      username,
      privateKey,
      readyTimeout: 20_000,
      hostVerifier: (key: Buffer) => {
        hostKey = key;
        return true;
      },
    });
  });
}

export interface CloudTunnel {
  /** http://127.0.0.1:<port>: the cloud API, as seen through the tunnel. */
  readonly baseUrl: string;
  /** Bytes the verifier has sent into the tunnel so far. */
  readonly bytesSent: number;
  close(): Promise<void>;
}

export interface TunnelOptions {
  logger?: { warn(obj: object, msg: string): void };
  /** Sees every byte the verifier sends to the cloud (the "no data is sent" test records them). */
  onOutbound?: (chunk: Buffer) => void;
}

/**
 * A local port whose connections are forwarded over SSH to the cloud API (direct-tcpip, which the cloud's
 * sshd restricts with permitopen). The host key must match the registered fingerprint. A dropped SSH
 * connection is opened again by the next local connection.
 */
export async function openCloudTunnel(reg: Registration, opts: TunnelOptions = {}): Promise<CloudTunnel> {
  let client: Client | null = null;
  let connecting: Promise<Client> | null = null;
  let bytesSent = 0;
  const sockets = new Set<net.Socket>();

  const connect = (): Promise<Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= new Promise<Client>((resolve, reject) => {
      const c = new Client();
      c.on('ready', () => {
        client = c;
        connecting = null;
        resolve(c);
      });
      c.on('error', (err) => {
        connecting = null;
        reject(err);
      });
      c.on('close', () => {
        if (client === c) client = null;
      });
      c.connect({
        host: reg.host,
        port: reg.port,
        username: reg.username,
        privateKey: reg.privateKey,
        readyTimeout: 20_000,
        keepaliveInterval: 30_000,
        hostVerifier: (key: Buffer) => fingerprint(key) === reg.hostKeyFingerprint,
      });
    });
    return connecting;
  };

  await connect();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.pause();
    connect()
      .then((c) =>
        c.forwardOut('127.0.0.1', socket.remotePort ?? 0, reg.apiHost, reg.apiPort, (err, stream) => {
          if (err) {
            opts.logger?.warn({ detail: err.message }, 'tunnel forward refused');
            socket.destroy();
            return;
          }
          socket.on('data', (chunk: Buffer) => {
            bytesSent += chunk.length;
            opts.onOutbound?.(chunk);
          });
          socket.pipe(stream).pipe(socket);
          stream.on('close', () => socket.destroy());
          socket.on('error', () => stream.close());
          socket.resume();
        }),
      )
      .catch((err: Error) => {
        opts.logger?.warn({ detail: err.message }, 'tunnel connection failed');
        socket.destroy();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get bytesSent() {
      return bytesSent;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      client?.end();
    },
  };
}
