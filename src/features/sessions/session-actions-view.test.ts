import { describe, expect, it } from "vitest";
import { archiveAction } from "./session-actions-view";

describe("archiveAction", () => {
  it("when the session is stopped, then Archive is offered", () => {
    expect(archiveAction({ state: "stopped", archived_at: null })).toEqual({
      label: "Archive",
      archived: true,
    });
  });

  it("when the session runs, then nothing: the daemon archives only a stopped session", () => {
    expect(archiveAction({ state: "active", archived_at: null })).toBeUndefined();
    expect(archiveAction(undefined)).toBeUndefined();
  });

  it("when the session is archived, then Unarchive, whatever its state", () => {
    expect(archiveAction({ state: "stopped", archived_at: "2026-01-01T00:00:00Z" })).toEqual({
      label: "Unarchive",
      archived: false,
    });
  });
});
