// A session's life as the person drives it: create, rename, stop, archive, delete.

import type { DaemonSession } from "../../../src/contract/session";
import type { HistoryScope } from "../../domain/session-recorder-api";
import type { PermissionBroker } from "../permission-broker";
import { refuse } from "../session-refusal";
import type { AgentLauncher } from "./agent-launch";
import type { HostContext, Runtime } from "./host-context";
import type { SessionView } from "./session-view";

export type SessionStarter = ReturnType<typeof createSessionStarter>;

export function createSessionStarter(
  ctx: HostContext,
  parts: { view: SessionView; launcher: AgentLauncher },
) {
  const { store, runtimes } = ctx;
  const { view } = parts;

  /** Stores a new session; its agent starts when the caller has recorded what precedes it. */
  return function startNew(workspaceId: string, agentName: string, name: string | undefined) {
    const created = store.createSession({
      workspaceId,
      agentName,
      ...(name === undefined ? {} : { name }),
    });
    return {
      created,
      launch(): DaemonSession {
        const runtime: Runtime = { state: "stopped" };
        runtimes.set(created.id, runtime);
        parts.launcher.launch(created, runtime, false);
        return view(ctx.requireSession(created.id));
      },
    };
  };
}

export function createSessionLifecycle(
  ctx: HostContext,
  parts: { view: SessionView; start: SessionStarter; permissions: PermissionBroker },
) {
  const { store, runtimes, deps } = ctx;
  const { view } = parts;

  return {
    createSession(
      workspaceId: string,
      input: {
        agentName?: string | undefined;
        name?: string | undefined;
        historyScope?: HistoryScope | undefined;
      },
    ): DaemonSession {
      if (store.getWorkspace(workspaceId) === undefined) throw refuse.notFound("workspace");
      const agentName = input.agentName ?? deps.agents[0]?.name;
      if (agentName === undefined || ctx.agentFor(agentName) === undefined) {
        throw refuse.invalid(`unknown agent "${input.agentName ?? ""}"`);
      }
      const started = parts.start(workspaceId, agentName, input.name);
      // Before the agent starts: its first tool call already sees the scope.
      if (input.historyScope !== undefined) {
        deps.ledger.settings.setHistoryScope(started.created.id, input.historyScope);
      }
      return started.launch();
    },

    renameSession(sessionId: string, workspaceId: string, name: string): DaemonSession {
      ctx.requireSession(sessionId, workspaceId);
      store.renameSession(sessionId, name);
      ctx.changed(sessionId);
      return view(ctx.requireSession(sessionId));
    },

    stopSession(sessionId: string, workspaceId?: string): void {
      ctx.requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      if (runtime?.process !== undefined && runtime.state !== "stopping") {
        runtime.stopReason = "stopped by request";
        // Answered before the kill, so a request can never be approved into a dying agent.
        parts.permissions.closeSession(sessionId, "agent stopped by request");
        // Its MCP secret dies now, not when the process is finally gone (ADR 0173).
        deps.sessionTools?.revoke(sessionId);
        ctx.setState(sessionId, runtime, "stopping");
        runtime.process.kill(deps.killGraceMs);
      }
    },

    /** Refused while a turn runs; else stops the agent if it runs and removes the session with all of its history. */
    deleteSession(sessionId: string, workspaceId: string): void {
      const found = ctx.requireSession(sessionId, workspaceId);
      const runtime = runtimes.get(sessionId);
      // Deleting mid-turn would kill the agent with its work unrecorded: stop it first.
      if (runtime?.turn !== undefined) throw refuse.deleteBusy();
      runtimes.delete(sessionId);
      const proc = runtime?.process;
      // Its exit records nothing now, so what it would have closed is closed here: pending
      // permission requests (the agent gets `cancelled`) and its MCP secret (ADR 0173).
      parts.permissions.closeSession(sessionId, "session deleted");
      deps.sessionTools?.revoke(sessionId);
      if (runtime !== undefined) runtime.process = undefined;
      proc?.kill(deps.killGraceMs);
      store.deleteSession(sessionId);
      ctx.changed(sessionId, found.workspace_id);
    },

    /** CompozyOS archives only a stopped session. */
    archiveSession(sessionId: string, workspaceId: string, archived: boolean): DaemonSession {
      const found = ctx.requireSession(sessionId, workspaceId);
      if (archived && found.archived_at === undefined) {
        if (ctx.stateOf(sessionId) !== "stopped") throw refuse.notStopped();
        store.setArchivedAt(sessionId, ctx.now().toISOString());
      }
      if (!archived && found.archived_at !== undefined) store.setArchivedAt(sessionId, null);
      ctx.changed(sessionId);
      return view(ctx.requireSession(sessionId));
    },
  };
}
