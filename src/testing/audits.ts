// Audits as the daemon sends them, for the row's component tests.
import type { AuditItem, CompactionAudit } from "../audit/types";

export function auditItem(overrides: Partial<AuditItem> & Pick<AuditItem, "key">): AuditItem {
  return {
    kind: "path",
    label: overrides.key.replace(/^\w+:/, ""),
    status: "dropped",
    why: "the summary names neither the path nor auth.ts",
    entry_id: "m-1",
    mentions: 1,
    pinned: false,
    by_person: false,
    ...overrides,
  };
}

export function lossyAudit(overrides: Partial<CompactionAudit> = {}): CompactionAudit {
  const items = [
    auditItem({ key: "path:src/auth.ts", entry_id: "m-2" }),
    auditItem({
      key: "last_request:m-9",
      kind: "last_request",
      label: "Now add the **retry** to <b>fetchUser</b>, keep `maxRetries` at 3.",
      why: "2 of 7 distinctive words",
      entry_id: "m-9",
      by_person: true,
    }),
    auditItem({
      key: "pinned:m-1",
      kind: "pinned",
      label: "Never edit files under src/gen/: they are generated.",
      why: "1 of 5 distinctive words",
      entry_id: "m-1",
      pinned: true,
      by_person: true,
    }),
    auditItem({
      key: "command:npm test",
      kind: "command",
      label: "npm test -- auth",
      why: "the summary never runs npm test",
    }),
    auditItem({ key: "path:README.md", status: "kept", why: "the summary names README.md" }),
  ];
  return {
    session_id: "s1",
    compaction_id: "c2",
    summary_readable: true,
    span: {
      first_turn_id: "t3",
      last_turn_id: "t17",
      first_turn_number: 3,
      last_turn_number: 17,
      first_entry_id: "m-1",
      turns: 15,
      messages: 42,
    },
    items,
    counts: { total: 5, kept: 1, dropped: 4, unchecked: 0 },
    omitted: 0,
    pinned_dropped: ["pinned:m-1"],
    previous: null,
    ...overrides,
  };
}
