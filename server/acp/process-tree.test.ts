// Real processes: a tree is its group, its pipes' holders and its marker's carriers, and
// ending it ends exactly those: a stranger (same user, same binary) is never touched.
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { processAlive } from "./process-group";
import { endTree, stdioIdentities, treeMembers } from "./process-tree";

const spawned: number[] = [];
afterAll(() => {
  for (const pid of spawned) if (processAlive(pid)) process.kill(pid, "SIGKILL");
});

const IGNORES_TERM = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);";

/** A leader that starts a TERM-ignoring grandchild in its own group, holding its stdout. */
function leaderWithDetachedHolder() {
  const script = `
    const { spawn } = require("node:child_process");
    const g = spawn(process.execPath, ["-e", ${JSON.stringify(IGNORES_TERM)}], {
      detached: true, stdio: ["ignore", "inherit", "ignore"], env: {},
    });
    console.log(g.pid);
    setInterval(() => {}, 1000);`;
  const leader = spawn(process.execPath, ["-e", script], {
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  spawned.push(leader.pid ?? 0);
  const tree = { pgid: leader.pid ?? 0, stdio: stdioIdentities(leader.pid ?? 0) };
  const grandchild = new Promise<number>((resolve) =>
    leader.stdout.once("data", (chunk: Buffer) => {
      const pid = Number(String(chunk).trim());
      spawned.push(pid);
      resolve(pid);
    }),
  );
  return { leader, tree, grandchild };
}

describe("a process tree", () => {
  it("when a grandchild left the group but holds the leader's stdout, then it is a member, and ending the tree SIGKILLs it past its ignored SIGTERM", async () => {
    const stranger = spawn(process.execPath, ["-e", IGNORES_TERM], { stdio: "ignore" });
    spawned.push(stranger.pid ?? 0);
    const { tree, grandchild } = leaderWithDetachedHolder();
    const pid = await grandchild;
    expect(tree.stdio).toHaveLength(3);
    expect(treeMembers(tree)).toEqual(expect.arrayContaining([tree.pgid, pid]));
    expect(treeMembers(tree)).not.toContain(stranger.pid);
    expect(await endTree(tree, 300)).toBe(true);
    expect(processAlive(pid)).toBe(false);
    expect(processAlive(tree.pgid)).toBe(false);
    expect(processAlive(stranger.pid ?? 0)).toBe(true);
  });

  it("when a tree is marked in its environment, then a child that left the group and its pipes is still found by the marker", async () => {
    const marker = `TIDELINE_TREE_TEST=${process.pid}-${Date.now()}`;
    const child = spawn(process.execPath, ["-e", IGNORES_TERM], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, TIDELINE_TREE_TEST: marker.split("=")[1] },
    });
    spawned.push(child.pid ?? 0);
    // A group that is not the child's: only the marker ties it to the tree.
    const tree = { pgid: 999_999_999, stdio: [], marker };
    await expect.poll(() => treeMembers(tree)).toEqual([child.pid]);
    expect(await endTree(tree, 200)).toBe(true);
    expect(processAlive(child.pid ?? 0)).toBe(false);
  });
});
