// The export over a real ledger: Markdown of the welcome session against a golden file, JSON
// equal to the transcript projection, JSONL equal to the ledger's rows, batches that neither
// skip nor repeat, a redacted secret that stays redacted, and clear errors for bad requests.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/contract/error";
import { EXPORT_JSON_FORMAT, ExportedRow } from "../../src/contract/export";
import { entryMarkdown, fenced } from "../domain/transcript-markdown";
import { startTestDaemon } from "../testing/daemon";
import { frames, openTestSession, type TestSession, tempDatabase } from "../testing/ledger-session";
import { ensureWelcomeSession } from "../welcome/welcome-session";
import { ApiError, sendError } from "./api-error";
import { EXPORT_BATCH, mountExportRoutes } from "./export-routes";

let t: TestSession | undefined;
let cleanup: (() => void) | undefined;
afterEach(() => {
  t?.ledger.close();
  cleanup?.();
  t = undefined;
  cleanup = undefined;
});

async function appFor(session: TestSession) {
  const { Hono } = await import("hono");
  const app = new Hono();
  app.onError((error, c) =>
    error instanceof ApiError ? sendError(c, error) : c.text("boom", 500),
  );
  mountExportRoutes(app, {
    store: session.ledger.store,
    reader: session.ledger.reader,
    exports: session.ledger.exports,
  });
  const ws = session.ledger.store.getSession(session.sessionId)?.workspace_id ?? "";
  return (query: string, sessionId = session.sessionId, workspace = ws) =>
    app.request(`/api/workspaces/${workspace}/sessions/${sessionId}/export${query}`);
}

const SECRET = "sk-ant-abcdefghijklmnopqrstuvwxyz012345";

function recordSession(session: TestSession, turns: number) {
  const { recorder } = session.ledger;
  for (let turn = 1; turn <= turns; turn += 1) {
    const turnId = `t${turn}`;
    recorder.recordInput(session.sessionId, turnId, `Step ${turn}: refine the ledger`);
    recorder.recordUpdate(session.sessionId, turnId, frames.text(`Done ${turn}.`, `m${turn}`));
    recorder.recordUpdate(
      session.sessionId,
      turnId,
      frames.tool(`call-${turn}`, { status: "completed", rawInput: { path: `src/f${turn}.ts` } }),
    );
  }
  const turnId = "t-compact";
  recorder.recordInput(session.sessionId, turnId, "/compact", { maintenance: true });
  recorder.recordUpdate(session.sessionId, turnId, frames.compaction("cmp-1", "in_progress"));
  // The secret is split across two chunks: only the joined, redacted summary may leave.
  recorder.recordUpdate(
    session.sessionId,
    turnId,
    frames.chunk("cmp-1", `## Goal\n\nKeep the key ${SECRET.slice(0, 12)}`),
  );
  recorder.recordUpdate(session.sessionId, turnId, frames.chunk("cmp-1", SECRET.slice(12)));
  recorder.recordUpdate(session.sessionId, turnId, frames.compaction("cmp-1", "completed"));
}

describe("GET …/sessions/{id}/export", () => {
  it("when exported as JSONL, then every line is a ledger row as stored, summary chunks left out, across batches", async () => {
    const db = tempDatabase();
    cleanup = db.cleanup;
    t = openTestSession(db.path);
    recordSession(t, Math.ceil(EXPORT_BATCH / 3) + 20);
    const response = await (await appFor(t))("?format=jsonl");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const text = await response.text();
    const lines = text.trimEnd().split("\n");
    const exported = lines.map((line) => ExportedRow.parse(JSON.parse(line)));

    const raw = new Database(db.path, { readonly: true });
    const stored = raw
      .prepare<
        [string],
        {
          sequence: number;
          turn_id: string | null;
          type: string;
          content: string;
          created_at: string;
        }
      >(
        "SELECT sequence, turn_id, type, content, created_at FROM ledger WHERE session_id = ? ORDER BY sequence",
      )
      .all(t.sessionId);
    raw.close();
    const visible = stored.filter((row) => row.type !== "compaction.chunk");
    expect(stored.length - visible.length).toBe(2);
    expect(visible.length).toBeGreaterThan(EXPORT_BATCH);
    expect(exported).toEqual(visible.map((row) => ({ ...row, content: JSON.parse(row.content) })));
    // The content is the stored JSON text, byte for byte.
    expect(lines.map((line) => JSON.stringify(JSON.parse(line).content))).toEqual(
      visible.map((row) => row.content),
    );
    expect(text).not.toContain(SECRET.slice(12));
  });

  it("when exported as JSON, then it holds the session and the transcript projection oldest first", async () => {
    t = openTestSession();
    recordSession(t, EXPORT_BATCH + 10);
    const response = await (await appFor(t))("?format=json");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename=".+\.json"$/,
    );
    const body = (await response.json()) as {
      format: string;
      session: { id: string; state: string };
      entries: { start_sequence: number }[];
    };
    expect(body.format).toBe(EXPORT_JSON_FORMAT);
    expect(body.session).toMatchObject({ id: t.sessionId, state: "stopped" });
    const projection = t.ledger.reader
      .transcriptPage(t.sessionId, { limit: 1000 })
      .entries.toSorted((a, b) => a.start_sequence - b.start_sequence);
    const older = t.ledger.reader.transcriptPage(t.sessionId, {
      limit: 1000,
      beforeSequence: projection[0]?.start_sequence ?? 0,
    });
    const all = [...older.entries, ...projection].toSorted(
      (a, b) => a.start_sequence - b.start_sequence,
    );
    expect(body.entries).toEqual(all);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(JSON.stringify(body)).toContain("[redacted]");
  });

  it("when no format is given, then it is Markdown with the compaction and its summary folded", async () => {
    t = openTestSession();
    recordSession(t, 2);
    const response = await (await appFor(t))("");
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await response.text();
    expect(text).toContain("### You\n\nStep 1: refine the ledger");
    expect(text).toContain("<summary>Tool: Tool call-1 · done</summary>");
    expect(text).toContain("> **Context compacted** · completed");
    expect(text).toContain("<summary>Summary</summary>\n\n## Goal");
    expect(text).not.toContain(SECRET);
  });

  it("when the format is unknown, a parameter is extra or the session is not in the workspace, then the answer says so", async () => {
    t = openTestSession();
    const get = await appFor(t);
    for (const query of ["?format=xml", "?format=", "?format=md&all=1", "?format=MD"]) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      expect(ErrorEnvelope.parse(await response.json()).code).toBe("invalid_request");
    }
    expect((await get("", "ses_nope")).status).toBe(404);
    expect((await get("", t.sessionId, "ws_other")).status).toBe(404);
  });
});

describe("the Markdown of an entry", () => {
  it("when tool output holds a code fence and a summary line holds HTML, then neither escapes its block", () => {
    const markdown = entryMarkdown({
      start_sequence: 1,
      sequence: 2,
      message: {
        id: "m1",
        role: "assistant",
        parts: [
          {
            type: "tool-execute",
            toolCallId: "c1",
            title: "Run </summary><script>x</script>",
            state: "output-available",
            output: "```\nnot the end\n````",
          },
        ],
      },
    });
    expect(markdown).toContain(
      "<summary>Tool: Run &lt;/summary&gt;&lt;script&gt;x&lt;/script&gt; · done</summary>",
    );
    expect(markdown).toContain("`````\n```\nnot the end\n````\n`````");
    expect(fenced("plain")).toBe("```\nplain\n```");
  });
});

describe("the welcome session's Markdown", () => {
  it("when the welcome session has played, then its export matches the golden file", async () => {
    const daemon = await startTestDaemon();
    try {
      const deps = { host: daemon.host, store: daemon.ledger.store, workspaceId: daemon.ws };
      const id = (await ensureWelcomeSession(deps)) ?? "";
      await daemon.waitForSession(id, (session) => session.activity === undefined);
      const response = await daemon.call("GET", `${daemon.sessionPath(id)}/export?format=md`);
      expect(response.status).toBe(200);
      const text = (await response.text())
        .replaceAll(id, "<session>")
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>");
      await expect(text).toMatchFileSnapshot("../testing/fixtures/welcome-session.export.md");
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});
