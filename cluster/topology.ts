/**
 * The cluster's hosts on one machine: each in its own network namespace, joined by veth pairs to
 * one bridge in the machine's namespace (10.44.0.1), which is where the tests and `status` reach
 * them from. Three database hosts (etcd member, Patroni, PostgreSQL 15), one balancer host
 * (HAProxy) and three app hosts (the checkout's server).
 */
import path from 'node:path';

export const ROOT = process.env.CLUSTER_DIR ?? '/tmp/holdfast-cluster';
export const BRIDGE = 'hf44br';
export const BRIDGE_ADDRESS = '10.44.0.1';
export const SCOPE = 'holdfast';
export const DATABASE = 'holdfast';
export const SUPERUSER_PASSWORD = 'holdfast-cluster-superuser';
export const REPLICATION_PASSWORD = 'holdfast-cluster-replication';
export const SESSION_SECRET = 'holdfast-cluster-session-secret-0123456789abcdef';
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Host {
  name: string;
  ns: string;
  ip: string;
  /** The veth end left in the machine's namespace, on the bridge. */
  veth: string;
  dir: string;
}

function host(name: string, ip: string): Host {
  return { name, ns: `hf-${name}`, ip, veth: `hfv-${name}`, dir: path.join(ROOT, name) };
}

export const DB_HOSTS: Host[] = [host('pg1', '10.44.0.11'), host('pg2', '10.44.0.12'), host('pg3', '10.44.0.13')];
export const LB_HOST: Host = host('lb', '10.44.0.10');
export const APP_HOSTS: Host[] = [host('app1', '10.44.0.21'), host('app2', '10.44.0.22'), host('app3', '10.44.0.23')];
export const ALL_HOSTS: Host[] = [...DB_HOSTS, LB_HOST, ...APP_HOSTS];

export const PG_PORT = 5432;
export const PATRONI_PORT = 8008;
export const ETCD_CLIENT_PORT = 2379;
export const ETCD_PEER_PORT = 2380;
/** HAProxy: writes to the leader, stale reads to the replicas, the app, and HAProxy's own page. */
export const LB_WRITE_PORT = 5000;
export const LB_READ_PORT = 5001;
export const LB_APP_PORT = 8080;
export const LB_STATS_PORT = 7000;
export const APP_PORT = 3000;

export const APP_URL = `http://${LB_HOST.ip}:${LB_APP_PORT}`;
export const WRITE_URL = `postgres://postgres:${SUPERUSER_PASSWORD}@${LB_HOST.ip}:${LB_WRITE_PORT}/${DATABASE}`;
export const READ_URL = `postgres://postgres:${SUPERUSER_PASSWORD}@${LB_HOST.ip}:${LB_READ_PORT}/${DATABASE}`;
export const nodeUrl = (h: Host, db = DATABASE) => `postgres://postgres:${SUPERUSER_PASSWORD}@${h.ip}:${PG_PORT}/${db}`;

/** Where `up` keeps the process ids it started, to be found by `status`, `down` and the chaos test. */
export const STATE_FILE = path.join(ROOT, 'state.json');

export interface State {
  startedAt: string;
  pids: Record<string, number>;
}
