// Every agent process tree not yet ended, including those whose leader exited and whose
// orphans are still being ended: what shutdown and killAllNow() must reach. Live groups
// are recorded (when a registry is given) so the next start can reap what a crash left.
import type { AgentProcess } from "../agent-process";
import type { HostContext } from "./host-context";

export type AgentTrees = ReturnType<typeof createAgentTrees>;

export function createAgentTrees(ctx: HostContext) {
  const trees = new Set<AgentProcess>();
  const { deps, log } = ctx;

  /** SIGKILL to every agent tree still running, synchronously: for the daemon's exit. */
  function killAllNow(): void {
    for (const proc of trees) proc.killNow();
  }

  return {
    track(sessionId: string, proc: AgentProcess): void {
      const pgid = proc.pid;
      if (pgid === undefined) return;
      trees.add(proc);
      try {
        deps.groups?.add({ pgid, token: proc.groupToken, sessionId });
      } catch (error) {
        log(`[${sessionId}] could not record the agent's process group: ${String(error)}`);
      }
      void proc.treeEnded.then((gone) => {
        trees.delete(proc);
        // A tree that survived SIGKILL stays recorded for the next start to try again.
        if (gone) deps.groups?.remove(pgid);
        else log(`[${sessionId}] agent process group ${pgid} survived SIGKILL`);
      });
    },

    killAllNow,

    /**
     * Stops every agent and waits (bounded) for each whole process tree to end; whatever is
     * left at the deadline gets SIGKILL before this returns.
     */
    async shutdown(timeoutMs = 3000): Promise<void> {
      const graceMs = Math.min(deps.killGraceMs ?? 1000, timeoutMs);
      for (const [sessionId, runtime] of ctx.runtimes) {
        if (runtime.process === undefined) continue;
        runtime.stopReason ??= "daemon stopped"; // a stop already asked for keeps its reason
        if (runtime.state !== "stopping") ctx.setState(sessionId, runtime, "stopping");
      }
      const ended = [...trees].map((proc) => {
        proc.kill(graceMs);
        return proc.treeEnded;
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(ended),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      killAllNow();
    },
  };
}
