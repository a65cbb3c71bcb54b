/**
 * `npm run cluster -- up | down | status`: the checkout on three Patroni-managed PostgreSQL 15 nodes
 * (three-member etcd, synchronous replication), HAProxy in front of the database and of three app
 * hosts, each host in its own network namespace on this machine. Needs root (namespaces) and
 * Debian's packages, which `up` installs when missing. See cluster/topology.ts for the addresses.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  ALL_HOSTS,
  APP_HOSTS,
  APP_PORT,
  APP_URL,
  BRIDGE,
  BRIDGE_ADDRESS,
  DB_HOSTS,
  ETCD_CLIENT_PORT,
  ETCD_PEER_PORT,
  LB_APP_PORT,
  LB_HOST,
  LB_READ_PORT,
  LB_STATS_PORT,
  LB_WRITE_PORT,
  PATRONI_PORT,
  PG_BIN,
  PG_PORT,
  READ_URL,
  REPLICATION_PASSWORD,
  ROOT,
  SCOPE,
  SESSION_SECRET,
  STATE_FILE,
  SUPERUSER_PASSWORD,
  WRITE_URL,
  DATABASE,
  type Host,
  type State,
} from './topology.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['patroni', 'python3-etcd', 'etcd-server', 'haproxy'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`cluster: ${line}\n`);

function run(cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', opts.quiet ? 'ignore' : 'pipe'] });
}
function tryRun(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

export function readState(): State | null {
  return existsSync(STATE_FILE) ? (JSON.parse(readFileSync(STATE_FILE, 'utf8')) as State) : null;
}
function writeState(state: State) {
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- packages

function installed(pkg: string): boolean {
  return spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout.includes(
    'install ok installed',
  );
}

function ensurePackages() {
  if (!existsSync(path.join(PG_BIN, 'postgres')))
    throw new Error(`PostgreSQL 15's server is not at ${PG_BIN} (apt-get install postgresql-15)`);
  const missing = PACKAGES.filter((p) => !installed(p));
  if (missing.length === 0) return;
  log(`installing ${missing.join(' ')}`);
  // Debian's packages start their services on install unless told not to; the cluster starts its own.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    if (!install()) throw new Error(`could not install ${missing.join(' ')}`);
  }
}

// ---------------------------------------------------------------- network

function netUp() {
  if (!tryRun('ip', ['link', 'show', BRIDGE])) {
    run('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${BRIDGE_ADDRESS}/24`, 'dev', BRIDGE]);
  }
  run('ip', ['link', 'set', BRIDGE, 'up']);
  for (const h of ALL_HOSTS) {
    if (!tryRun('ip', ['netns', 'exec', h.ns, 'true'])) run('ip', ['netns', 'add', h.ns]);
    if (!tryRun('ip', ['link', 'show', h.veth]))
      run('ip', ['link', 'add', h.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.ns]);
    run('ip', ['link', 'set', h.veth, 'master', BRIDGE, 'up']);
    run('ip', ['netns', 'exec', h.ns, 'ip', 'link', 'set', 'lo', 'up']);
    if (!run('ip', ['-n', h.ns, 'addr', 'show', 'eth0']).includes(`${h.ip}/24`))
      run('ip', ['-n', h.ns, 'addr', 'add', `${h.ip}/24`, 'dev', 'eth0']);
    run('ip', ['-n', h.ns, 'link', 'set', 'eth0', 'up']);
  }
}

/** Cuts a host off the network (its link down) or joins it back. */
export function setLink(h: Host, up: boolean) {
  run('ip', ['-n', h.ns, 'link', 'set', 'eth0', up ? 'up' : 'down']);
}

function netDown() {
  for (const h of ALL_HOSTS) {
    if (tryRun('ip', ['netns', 'exec', h.ns, 'true'])) {
      // Whatever still runs inside the cluster's own namespaces is the cluster's.
      for (const pid of run('ip', ['netns', 'pids', h.ns], { quiet: true }).split(/\s+/).filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          /* gone already */
        }
      }
      tryRun('ip', ['netns', 'del', h.ns]);
    }
    tryRun('ip', ['link', 'del', h.veth]);
  }
  tryRun('ip', ['link', 'del', BRIDGE]);
}

// ---------------------------------------------------------------- processes

/** Starts a command inside a host's namespace, in its own process group, its output in `logFile`. */
function startIn(h: Host, name: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): number {
  const out = openSync(path.join(ROOT, 'logs', `${name}.log`), 'a');
  const child = spawn('ip', ['netns', 'exec', h.ns, ...args], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
    cwd,
  });
  child.unref();
  return child.pid!;
}

const asPostgres = (args: string[]) => [
  'setpriv',
  `--reuid=postgres`,
  `--regid=postgres`,
  '--init-groups',
  '--reset-env',
  ...args,
];

function etcdArgs(h: Host): string[] {
  const cluster = DB_HOSTS.map((d) => `${d.name}=http://${d.ip}:${ETCD_PEER_PORT}`).join(',');
  return [
    'etcd',
    `--name=${h.name}`,
    `--data-dir=${path.join(h.dir, 'etcd')}`,
    `--listen-client-urls=http://${h.ip}:${ETCD_CLIENT_PORT},http://127.0.0.1:${ETCD_CLIENT_PORT}`,
    `--advertise-client-urls=http://${h.ip}:${ETCD_CLIENT_PORT}`,
    `--listen-peer-urls=http://${h.ip}:${ETCD_PEER_PORT}`,
    `--initial-advertise-peer-urls=http://${h.ip}:${ETCD_PEER_PORT}`,
    `--initial-cluster=${cluster}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${SCOPE}`,
    '--heartbeat-interval=100',
    '--election-timeout=1000',
    '--logger=zap',
    '--log-level=warn',
  ];
}

/**
 * Patroni's configuration. Synchronous mode, strict: a commit returns only once a replica has it,
 * and with no replica writes wait rather than run unprotected (RPO 0). A crashed leader's postmaster
 * is not restarted in place (primary_start_timeout 0): the synchronous replica takes over at once.
 */
function patroniYaml(h: Host): string {
  const q = (s: string) => JSON.stringify(s);
  return `scope: ${SCOPE}
name: ${h.name}
log:
  level: WARNING
restapi:
  listen: ${h.ip}:${PATRONI_PORT}
  connect_address: ${h.ip}:${PATRONI_PORT}
etcd3:
  hosts: [${DB_HOSTS.map((d) => q(`${d.ip}:${ETCD_CLIENT_PORT}`)).join(', ')}]
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 1048576
    primary_start_timeout: 0
    synchronous_mode: true
    synchronous_mode_strict: true
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_connections: 300
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: 'on'
        wal_sender_timeout: 3s
        wal_receiver_timeout: 3s
        wal_receiver_status_interval: 1s
        tcp_keepalives_idle: 2
        tcp_keepalives_interval: 1
        tcp_keepalives_count: 3
        tcp_user_timeout: 5000
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - data-checksums
postgresql:
  listen: ${h.ip},127.0.0.1:${PG_PORT}
  connect_address: ${h.ip}:${PG_PORT}
  data_dir: ${path.join(h.dir, 'data')}
  bin_dir: ${PG_BIN}
  pgpass: ${path.join(h.dir, 'pgpass')}
  authentication:
    superuser: {username: postgres, password: ${q(SUPERUSER_PASSWORD)}}
    replication: {username: replicator, password: ${q(REPLICATION_PASSWORD)}}
  parameters:
    unix_socket_directories: ${q(h.dir)}
    shared_buffers: 64MB
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication replicator 10.44.0.0/24 scram-sha-256
    - host all all 10.44.0.0/24 scram-sha-256
tags:
  nofailover: false
  noloadbalance: false
`;
}

/**
 * HAProxy: PostgreSQL's writes go to whichever node Patroni's REST API calls the primary (checked
 * every half second; a node marked down has its sessions cut, so no pool keeps talking to a
 * demoted leader), stale reads to the replicas (to the primary while no replica is up), and HTTP to
 * the app hosts that answer /health (a host marked down has its requests cut, to be tried again).
 * An app host that dies is found by TCP keepalives within about 3 s, and its database sessions
 * closed: without them a host that vanished without closing its connections (a machine lost, a
 * network cut) kept its sessions, and the jobs' lock, for `timeout client`, 30 minutes.
 * A request the app never answered (its host gone) is told to try again, as JSON, with a 503.
 */
function haproxyCfg(): string {
  const lb = LB_HOST;
  const dir = lb.dir;
  const db = (check: string) =>
    DB_HOSTS.map((d) => `  server ${d.name} ${d.ip}:${PG_PORT} maxconn 250 check port ${PATRONI_PORT}`).join('\n') +
    `\n  option httpchk OPTIONS ${check}\n  http-check expect status 200\n`;
  return `global
  maxconn 4000
  pidfile ${path.join(dir, 'haproxy.pid')}
  stats socket ${path.join(dir, 'haproxy.sock')} mode 600 level admin

defaults
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
  # A client host that dies closes nothing: idle, it is asked after 1 s and given up after two
  # unanswered probes a second apart, and its sessions on the database end with it (and so the
  # jobs' lock it held). Data it never acknowledges is given up after 3 s (tcp-ut on the binds).
  option clitcpka
  clitcpka-idle 1s
  clitcpka-intvl 1s
  clitcpka-cnt 2

listen primary
  bind ${lb.ip}:${LB_WRITE_PORT} tcp-ut 3s
  mode tcp
  default-server inter 500ms fastinter 250ms fall 2 rise 2 on-marked-down shutdown-sessions
${db('/primary')}
frontend stale_reads
  bind ${lb.ip}:${LB_READ_PORT} tcp-ut 3s
  mode tcp
  use_backend replicas if { nbsrv(replicas) gt 0 }
  default_backend primary

backend replicas
  mode tcp
  balance roundrobin
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
${db('/replica')}
listen app
  bind ${lb.ip}:${LB_APP_PORT}
  mode http
  option forwardfor
  option httplog
  balance roundrobin
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 10s
  option redispatch 1
  retries 2
  retry-on conn-failure
  option httpchk GET /health
  http-check expect status 200
  default-server inter 500ms fastinter 250ms fall 2 rise 2 on-marked-down shutdown-sessions
  errorfile 502 ${path.join(dir, 'try-again.http')}
  errorfile 503 ${path.join(dir, 'try-again.http')}
  errorfile 504 ${path.join(dir, 'try-again.http')}
${APP_HOSTS.map((a) => `  server ${a.name} ${a.ip}:${APP_PORT} check`).join('\n')}

listen stats
  bind ${lb.ip}:${LB_STATS_PORT}
  mode http
  stats enable
  stats uri /
`;
}

export const TRY_AGAIN = 'The checkout could not finish your request just now. Please try again.';

function tryAgainHttp(): string {
  const body = JSON.stringify({ error: TRY_AGAIN, retry: true });
  return `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\nretry-after: 1\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** The environment of an app host's server. */
export function appEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: WRITE_URL,
    DATABASE_READ_URL: READ_URL,
    DATABASE_POOL_SIZE: '20',
    DEMO: '1',
    HOST: '0.0.0.0',
    PORT: String(APP_PORT),
    SESSION_SECRET,
    TRUST_PROXY: LB_HOST.ip,
    LOG_LEVEL: 'warn',
    CAPTCHA: 'never',
    // The queue's proof of work at its smallest: the rush's buyers solve one each, on the test's own cores.
    ALTCHA_MAX_NUMBER: '1000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_HELD_PER_BUYER: '100000',
    SWEEP_INTERVAL_MS: '2000',
    TRUELAYER_POLL_INTERVAL_MS: '500',
    STATIC_DIR: path.join(REPO, 'dist/client'),
    ...extra,
  };
}

/**
 * Starts an app host's server under its supervisor, a loop in the host's namespace that starts the
 * server again a second after it exits (a server that could not reach its database while starting
 * gives up and is started again), as systemd's Restart=always would. Killing the host's process
 * group stops both.
 */
export function startApp(a: Host, extra: Record<string, string> = {}): number {
  // Each host names itself to the database, so the leader shows which host holds what.
  const env = appEnv({
    DATABASE_URL: `${WRITE_URL}?application_name=${a.name}`,
    DATABASE_READ_URL: `${READ_URL}?application_name=${a.name}-reads`,
    ...extra,
  });
  const server = `${JSON.stringify(process.execPath)} --import tsx server/main.ts`;
  const supervisor = `while :; do ${server}; echo "$(date -Is) supervisor: the server stopped ($?); starting it again"; sleep 1; done`;
  return startIn(a, a.name, ['sh', '-c', supervisor], env, REPO);
}

/**
 * Kills an app host as a machine dies: its network goes first, then every process of its server at
 * once (SIGKILL), so nothing it had open is closed in good order, not even its connections through
 * the balancer to the database. The balancer's health checks take it out of the rotation; its
 * database sessions end when the balancer's keepalives find it gone (haproxyCfg).
 */
export function killAppHost(a: Host): void {
  setLink(a, false);
  killGroup(readState()?.pids[a.name], 'SIGKILL');
}

/**
 * Starts an app host's server again, as its supervisor does after the host died: its network joined
 * again, its server started, the new process id recorded for `status` and `down`. The balancer puts
 * it back in the rotation once its health check answers.
 */
export function restartApp(a: Host): number {
  setLink(a, true);
  const state = readState();
  if (!state) throw new Error('the cluster is not up');
  const pid = startApp(a);
  state.pids[a.name] = pid;
  writeState(state);
  return pid;
}

/** HAProxy's own figures, one row per server: its state (UP, DOWN, …) and the sessions it has taken. */
export async function balancerServers(): Promise<
  { proxy: string; server: string; status: string; sessions: number; downs: number }[]
> {
  const res = await fetch(`http://${LB_HOST.ip}:${LB_STATS_PORT}/;csv`, { signal: AbortSignal.timeout(1000) });
  const [header, ...lines] = (await res.text()).trim().split('\n');
  const names = header!.replace(/^# /, '').split(',');
  const at = (name: string) => names.indexOf(name);
  return lines
    .map((l) => l.split(','))
    .filter((f) => f[at('svname')] !== 'FRONTEND' && f[at('svname')] !== 'BACKEND')
    .map((f) => ({
      proxy: f[at('pxname')]!,
      server: f[at('svname')]!,
      status: f[at('status')]!,
      sessions: Number(f[at('stot')]),
      downs: Number(f[at('chkdown')] || 0),
    }));
}

// ---------------------------------------------------------------- health

async function httpJson(url: string, timeoutMs = 1000): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await ok().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what} (logs in ${path.join(ROOT, 'logs')})`);
}

export interface NodeStatus {
  name: string;
  role: 'leader' | 'replica' | 'sync_replica' | 'down' | string;
  state: string | null;
  postgres: string;
  patroni: string;
  postmasterPid: number | null;
  patroniPid: number | null;
  etcdPid: number | null;
  timeline: number | null;
}

function postmasterPid(h: Host): number | null {
  const file = path.join(h.dir, 'data', 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return alive(pid) ? pid : null;
}

/** Each database node as Patroni's REST API tells it (the cluster view from any node that answers). */
export async function nodeStatuses(): Promise<NodeStatus[]> {
  const state = readState();
  let members: { name: string; role: string; state: string; timeline?: number }[] = [];
  for (const h of DB_HOSTS) {
    try {
      const { status, body } = await httpJson(`http://${h.ip}:${PATRONI_PORT}/cluster`, 700);
      if (status === 200) {
        members = (body as { members: typeof members }).members;
        break;
      }
    } catch {
      /* try the next */
    }
  }
  return DB_HOSTS.map((h) => {
    const m = members.find((x) => x.name === h.name);
    return {
      name: h.name,
      role: m ? m.role : 'down',
      state: m?.state ?? null,
      postgres: `${h.ip}:${PG_PORT}`,
      patroni: `http://${h.ip}:${PATRONI_PORT}`,
      postmasterPid: postmasterPid(h),
      patroniPid: alive(state?.pids[`patroni-${h.name}`]) ? state!.pids[`patroni-${h.name}`]! : null,
      etcdPid: alive(state?.pids[`etcd-${h.name}`]) ? state!.pids[`etcd-${h.name}`]! : null,
      timeline: m?.timeline ?? null,
    };
  });
}

export async function leaderOf(): Promise<NodeStatus | null> {
  return (await nodeStatuses()).find((n) => n.role === 'leader' && n.state === 'running') ?? null;
}

export async function status() {
  const state = readState();
  const apps = await Promise.all(
    APP_HOSTS.map(async (a) => {
      const pid = state?.pids[a.name];
      const healthy = await httpJson(`http://${a.ip}:${APP_PORT}/health`, 700).then(
        (r) => r.status === 200,
        () => false,
      );
      return { name: a.name, address: `http://${a.ip}:${APP_PORT}`, pid: alive(pid) ? pid : null, healthy };
    }),
  );
  return {
    up: state !== null,
    appUrl: `${APP_URL}/all-events/`,
    database: { writes: `${LB_HOST.ip}:${LB_WRITE_PORT}`, staleReads: `${LB_HOST.ip}:${LB_READ_PORT}`, url: WRITE_URL },
    balancer: {
      address: LB_HOST.ip,
      stats: `http://${LB_HOST.ip}:${LB_STATS_PORT}/`,
      pid: alive(state?.pids.haproxy) ? state!.pids.haproxy! : null,
    },
    nodes: await nodeStatuses(),
    apps,
  };
}

// ---------------------------------------------------------------- up / down

/** Writes reach the leader through HAProxy and a replica confirms them (synchronous replication). */
async function databaseReady(): Promise<boolean> {
  const nodes = await nodeStatuses();
  if (!nodes.some((n) => n.role === 'leader' && n.state === 'running')) return false;
  if (!nodes.some((n) => n.role === 'sync_standby' && (n.state === 'streaming' || n.state === 'running'))) return false;
  const client = new pg.Client({
    connectionString: WRITE_URL.replace(`/${DATABASE}`, '/postgres'),
    connectionTimeoutMillis: 1000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ exists: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS exists`,
      [DATABASE],
    );
    if (!rows[0]!.exists) await client.query(`CREATE DATABASE ${DATABASE}`);
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function up(opts: { apps?: number } = {}): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('the cluster needs root, for its network namespaces');
  if (readState()) {
    log('already up (npm run cluster -- down first to start afresh)');
    return;
  }
  ensurePackages();
  const t0 = Date.now();
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(path.join(ROOT, 'logs'), { recursive: true, mode: 0o755 });
  netUp();
  const state: State = { startedAt: new Date().toISOString(), pids: {} };
  writeState(state);

  const pgUid = Number(run('id', ['-u', 'postgres']).trim());
  const pgGid = Number(run('id', ['-g', 'postgres']).trim());
  for (const h of DB_HOSTS) {
    mkdirSync(h.dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(h.dir, 'patroni.yml'), patroniYaml(h));
    mkdirSync(path.join(h.dir, 'etcd'), { recursive: true, mode: 0o700 });
    chownSync(h.dir, pgUid, pgGid);
    chownSync(path.join(h.dir, 'patroni.yml'), pgUid, pgGid);
    state.pids[`etcd-${h.name}`] = startIn(h, `etcd-${h.name}`, etcdArgs(h));
  }
  writeState(state);
  await waitFor(
    'etcd',
    async () => {
      const r = await httpJson(`http://${DB_HOSTS[0]!.ip}:${ETCD_CLIENT_PORT}/health`);
      return r.status === 200 && (r.body as { health?: string }).health === 'true';
    },
    30_000,
  );
  log(`etcd up (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  // The first node bootstraps alone; the others then copy it, rather than race for the bootstrap.
  const startPatroni = (h: Host) =>
    (state.pids[`patroni-${h.name}`] = startIn(
      h,
      `patroni-${h.name}`,
      asPostgres(['patroni', path.join(h.dir, 'patroni.yml')]),
    ));
  startPatroni(DB_HOSTS[0]!);
  writeState(state);
  await waitFor(
    'the first PostgreSQL node',
    async () => (await nodeStatuses()).some((n) => n.role === 'leader' && n.state === 'running'),
    60_000,
  );
  for (const h of DB_HOSTS.slice(1)) startPatroni(h);
  writeState(state);

  mkdirSync(LB_HOST.dir, { recursive: true });
  writeFileSync(path.join(LB_HOST.dir, 'haproxy.cfg'), haproxyCfg());
  writeFileSync(path.join(LB_HOST.dir, 'try-again.http'), tryAgainHttp());
  state.pids.haproxy = startIn(LB_HOST, 'haproxy', [
    'haproxy',
    '-W',
    '-db',
    '-f',
    path.join(LB_HOST.dir, 'haproxy.cfg'),
  ]);
  writeState(state);

  await waitFor('PostgreSQL with a synchronous replica behind HAProxy', databaseReady, 90_000);
  log(`database up (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  // The app hosts: the first migrates and seeds, the others wait on its lock (server/db/index.ts).
  for (const a of APP_HOSTS.slice(0, opts.apps ?? APP_HOSTS.length)) state.pids[a.name] = startApp(a);
  writeState(state);
  await waitFor(
    'the app through HAProxy',
    async () => (await fetch(`${APP_URL}/health`, { signal: AbortSignal.timeout(1000) })).status === 200,
    120_000,
  );
  await waitFor(
    'every app host',
    async () => (await status()).apps.every((a, i) => i >= (opts.apps ?? APP_HOSTS.length) || a.healthy),
    120_000,
  );
  await waitFor(
    'every replica streaming',
    async () => (await nodeStatuses()).every((n) => n.state === 'running' || n.state === 'streaming'),
    60_000,
  );
  log(`up in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${APP_URL}/all-events/`);
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

export async function down(): Promise<void> {
  const state = readState();
  if (state) {
    // App hosts and the balancer first, then Patroni (which stops its PostgreSQL), then etcd.
    for (const a of APP_HOSTS) killGroup(state.pids[a.name], 'SIGKILL');
    killGroup(state.pids.haproxy, 'SIGKILL');
    for (const h of DB_HOSTS) killGroup(state.pids[`patroni-${h.name}`], 'SIGKILL');
    for (const h of DB_HOSTS) {
      const pid = postmasterPid(h);
      if (pid) killGroup(pid, 'SIGKILL');
    }
    for (const h of DB_HOSTS) killGroup(state.pids[`etcd-${h.name}`], 'SIGKILL');
  }
  netDown();
  await sleep(200);
  rmSync(ROOT, { recursive: true, force: true });
}

async function main() {
  const command = process.argv[2];
  try {
    switch (command) {
      case 'up':
        await up();
        console.log(JSON.stringify(await status(), null, 2));
        break;
      case 'down':
        await down();
        log('down');
        break;
      case 'status':
        console.log(JSON.stringify(await status(), null, 2));
        break;
      default:
        console.error('usage: npm run cluster -- up | down | status');
        process.exit(2);
    }
  } catch (err) {
    console.error(`cluster: ${(err as Error).message}`);
    process.exit(1);
  }
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
