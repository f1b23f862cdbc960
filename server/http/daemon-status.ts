// `GET /api/status` in CompozyOS's shape (`internal/api/core/status.go`): the figures the
// reference daemon has — process, sessions, agents, ledger size — and, for the subsystems
// it does not have (automation, bridges, memory, skills, tasks, gateway), the payload's
// "nothing here" form: disabled, zero, empty (ADR 0191).
import { homedir } from "node:os";
import { type DaemonStatus, STATUS_SCHEMA_VERSION } from "../../src/contract/compozy-surfaces";
import type { DaemonSession } from "../../src/contract/session";

export type StatusFacts = {
  version: string;
  startedAt: Date;
  now: Date;
  host: string;
  port: number;
  configFile: string | undefined;
  dbSizeBytes: number;
  sessions: readonly Pick<DaemonSession, "state">[];
};

const BRIDGES = {
  auth_failures_total: 0,
  delivery_backlog: 0,
  delivery_dropped_total: 0,
  delivery_failures_total: 0,
  route_count: 0,
  status_counts: { auth_required: 0, degraded: 0, disabled: 0, error: 0, ready: 0, starting: 0 },
  total_instances: 0,
};

// What CompozyOS reports for the subsystems this daemon does not have.
const AUTOMATION: DaemonStatus["automation"] = {
  enabled: false,
  jobs: { enabled: 0, total: 0 },
  scheduler_running: false,
  triggers: { enabled: 0, total: 0 },
};

const MEMORY: DaemonStatus["memory"] = {
  configured: false,
  dream_enabled: false,
  enabled: false,
  global_files: 0,
  indexed_files: 0,
  last_consolidation: null,
  last_operation_at: null,
  last_reindex: null,
  operation_count: 0,
  orphaned_files: 0,
  status: "disabled",
  workspace_count: 0,
  workspace_files: 0,
};

const SKILLS: DaemonStatus["skills"] = {
  disabled_count: 0,
  discovered_count: 0,
  runtime_available: false,
};

const TASKS: DaemonStatus["tasks"] = {
  active_orphan_runs: 0,
  channel_mismatch_since_start: 0,
  duplicate_ingress_since_start: 0,
  forced_stops_since_start: 0,
  oldest_queue_age_ms: 0,
  queue_depth_total: 0,
  recovery_since_start: { failed: 0, marked_running: 0, requeued: 0 },
  status: "ok",
};

const RETENTION: DaemonStatus["health"]["retention"] = {
  deleted_event_summaries: 0,
  deleted_permission_log_rows: 0,
  deleted_token_stats: 0,
  deleted_token_usage_daily: 0,
  // The ledger is append-only: nothing is ever swept.
  enabled: false,
  last_sweep_status: "disabled",
  retention_days: 0,
  sweep_interval_seconds: 0,
};

export function daemonStatus(facts: StatusFacts): DaemonStatus {
  const byStatus: Record<string, number> = {};
  for (const session of facts.sessions)
    byStatus[session.state] = (byStatus[session.state] ?? 0) + 1;
  const running = facts.sessions.length - (byStatus.stopped ?? 0);
  const active = byStatus.active ?? 0;
  const uptime = Math.max(0, Math.floor((facts.now.getTime() - facts.startedAt.getTime()) / 1000));
  return {
    schema_version: STATUS_SCHEMA_VERSION,
    generated_at: facts.now.toISOString(),
    automation: AUTOMATION,
    bridges: BRIDGES,
    config: {
      apply_state: "applied",
      ...(facts.configFile === undefined ? {} : { config_file: facts.configFile }),
      restart_required: false,
      status: "ok",
      validated: true,
    },
    daemon: {
      active_sessions: active,
      gateway: null,
      http_host: facts.host,
      http_port: facts.port,
      min_app_version: "",
      pid: process.pid,
      schema_streams: [],
      socket: "",
      started_at: facts.startedAt.toISOString(),
      status: "running",
      total_sessions: facts.sessions.length,
      user_home_dir: homedir(),
      version: facts.version,
    },
    health: {
      active_agents: running,
      active_sessions: active,
      bridges: BRIDGES,
      failures: { status: "ok", total: 0 },
      global_db_size_bytes: facts.dbSizeBytes,
      persistence: {
        global_db_size_bytes: facts.dbSizeBytes,
        session_db_size_bytes: 0,
        status: "ok",
      },
      retention: RETENTION,
      session_db_size_bytes: 0,
      status: "ok",
      uptime_seconds: uptime,
      version: facts.version,
    },
    log_tail: { available: false, status: "unavailable" },
    memory: MEMORY,
    sessions: { active, total: facts.sessions.length, by_status: byStatus },
    skills: SKILLS,
    subprocess_health: { healthy: running, monitored: running, status: "ok", unhealthy: 0 },
    tasks: TASKS,
  };
}
