import { describe, expect, it } from "vitest";
import type { WorkspaceSearchHit } from "../../contract/search";
import type { Session } from "../../contract/session";
import { filterByName, hitHref, snippetText, workspacesOf } from "./session-search-view";

const session = (id: string, name: string | null, workspace_id = "ws_1") =>
  ({ id, name, workspace_id }) as Session;

describe("sidebar search view", () => {
  it("when a name is typed, then sessions are filtered by their shown name at once", () => {
    const sessions = [session("s1", "Billing work"), session("s2", null), session("s3", "Docs")];
    expect(filterByName(sessions, "BILL").map((s) => s.id)).toEqual(["s1"]);
    expect(filterByName(sessions, "s2").map((s) => s.id)).toEqual(["s2"]);
    expect(filterByName(sessions, "  ")).toHaveLength(3);
    expect(workspacesOf([...sessions, session("s4", "x", "ws_2")])).toEqual(["ws_1", "ws_2"]);
  });

  it("when a hit is linked, then its link opens the session with the query and the entry", () => {
    const hit: WorkspaceSearchHit = {
      session_id: "ses 1",
      session_name: null,
      entry_id: "user-2",
      start_sequence: 2,
      snippet: [
        { text: "a ", match: false },
        { text: "b&c", match: true },
      ],
    };
    expect(hitHref(hit, "ws_1", "b&c d")).toBe("/w/ws_1/s/ses%201?find=b%26c+d&at=user-2");
    expect(snippetText(hit.snippet)).toBe("a b&c");
  });
});
