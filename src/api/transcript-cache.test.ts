import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import {
  foldAppend,
  foldDelta,
  foldNewestPage,
  foldOlderPage,
  mergeEntries,
  reconnectDelayMs,
  resumeCursor,
  type TranscriptData,
} from "./transcript-cache";

function entry(start: number, sequence = start, text = `t${start}@${sequence}`): Entry {
  return {
    start_sequence: start,
    sequence,
    message: { id: `m${start}`, role: "assistant", parts: [{ type: "text", id: "p", text }] },
  };
}

const starts = (entries: readonly Entry[]) => entries.map((e) => e.start_sequence);

function data(
  entries: Entry[],
  cursor: number,
  extra: Partial<TranscriptData> = {},
): TranscriptData {
  return {
    epoch: 1,
    generation: 0,
    entries,
    cursor,
    hasOlder: false,
    nextBeforeSequence: entries[0]?.start_sequence,
    ...extra,
  };
}

describe("mergeEntries", () => {
  it("when entries arrive out of order, then they are kept sorted by start_sequence", () => {
    expect(starts(mergeEntries([entry(2), entry(8)], [entry(5), entry(1), entry(9)]))).toEqual([
      1, 2, 5, 8, 9,
    ]);
  });

  it("when an incoming entry has a newer or equal sequence, then it replaces the stored one", () => {
    const merged = mergeEntries([entry(3, 4, "old")], [entry(3, 7, "new")]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.sequence).toBe(7);
    const equal = mergeEntries([entry(3, 7, "a")], [entry(3, 7, "b")]);
    expect(equal[0]?.message.parts[0]).toMatchObject({ text: "b" });
  });

  it("when an incoming entry is older than the stored one, then it is ignored and the array is reused", () => {
    const stored = [entry(3, 9)];
    expect(mergeEntries(stored, [entry(3, 5)])).toBe(stored);
  });

  it("when the same entry arrives twice in one batch, then the newest sequence wins", () => {
    const merged = mergeEntries([], [entry(4, 6), entry(4, 9), entry(4, 7)]);
    expect(merged.map((e) => e.sequence)).toEqual([9]);
  });
});

describe("foldNewestPage", () => {
  const page = (entries: Entry[], max: number, extra = {}) => ({
    entries,
    epoch: 1,
    generation: 0,
    max_sequence: max,
    has_older: true,
    next_before_sequence: entries[0]?.start_sequence,
    ...extra,
  });

  it("when there is no cache, then the page becomes it with the cursor at max_sequence", () => {
    const folded = foldNewestPage(undefined, page([entry(10), entry(11)], 12));
    expect(folded).toMatchObject({ cursor: 12, hasOlder: true, nextBeforeSequence: 10 });
    expect(starts(folded.entries)).toEqual([10, 11]);
  });

  it("when older pages are loaded, then a newer snapshot keeps them and their boundary", () => {
    const current = data([entry(1), entry(10), entry(11)], 11, {
      hasOlder: false,
      nextBeforeSequence: 1,
    });
    const folded = foldNewestPage(current, page([entry(10), entry(11, 14), entry(15)], 15));
    expect(starts(folded.entries)).toEqual([1, 10, 11, 15]);
    expect(folded).toMatchObject({ cursor: 15, hasOlder: false, nextBeforeSequence: 1 });
  });

  it("when an HTTP page is older than what the stream wrote, then the cursor does not go back", () => {
    const current = data([entry(10, 20)], 20);
    const folded = foldNewestPage(current, page([entry(10, 12)], 12));
    expect(folded.cursor).toBe(20);
    expect(folded.entries[0]?.sequence).toBe(20);
  });

  it("when the epoch or generation changed, then the cache is replaced", () => {
    const current = data([entry(1), entry(2)], 30);
    const byEpoch = foldNewestPage(current, page([entry(5)], 5, { epoch: 2 }));
    expect(starts(byEpoch.entries)).toEqual([5]);
    expect(byEpoch.cursor).toBe(5);
    const byGeneration = foldNewestPage(current, page([entry(6)], 6, { generation: 1 }));
    expect(starts(byGeneration.entries)).toEqual([6]);
  });
});

describe("foldOlderPage", () => {
  const older = (entries: Entry[], hasOlder: boolean, epoch = 1) => ({
    entries,
    epoch,
    generation: 0,
    max_sequence: 40,
    has_older: hasOlder,
    limit: 200,
    ...(hasOlder ? { next_before_sequence: entries[0]?.start_sequence ?? 0 } : {}),
  });

  it("when an older page arrives, then it is merged below and the boundary moves", () => {
    const result = foldOlderPage(
      data([entry(10)], 40, { hasOlder: true }),
      older([entry(3), entry(7)], true),
    );
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(starts(result.data.entries)).toEqual([3, 7, 10]);
    expect(result.data).toMatchObject({ hasOlder: true, nextBeforeSequence: 3, cursor: 40 });
  });

  it("when the older page belongs to another epoch, then the caller must reset", () => {
    expect(foldOlderPage(data([entry(10)], 40), older([entry(3)], false, 9)).kind).toBe("reset");
  });
});

describe("foldDelta and resume", () => {
  const delta = (entries: Entry[], cursor: number, extra = {}) => ({
    session_id: "s1",
    epoch: 1,
    generation: 0,
    entries,
    cursor,
    max_sequence: cursor,
    has_more: false,
    ...extra,
  });

  it("when a delta upserts entries, then the cursor moves forward and resume uses it", () => {
    const result = foldDelta(data([entry(1), entry(4, 5)], 5), delta([entry(4, 8), entry(9)], 9));
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(starts(result.data.entries)).toEqual([1, 4, 9]);
    expect(result.data.entries[1]?.sequence).toBe(8);
    expect(resumeCursor(result.data)).toEqual({ afterSequence: 9, epoch: 1, generation: 0 });
  });

  it("when a resumed delta repeats entries already held, then nothing is duplicated", () => {
    const current = data([entry(1), entry(4, 8), entry(9)], 9);
    const result = foldDelta(current, delta([entry(4, 8), entry(9)], 9));
    expect(result).toEqual({ kind: "ok", data: current });
  });

  it("when the epoch or generation changed, then the delta asks for a reset", () => {
    const current = data([entry(1)], 5);
    expect(foldDelta(current, delta([entry(2)], 6, { epoch: 2 })).kind).toBe("reset");
    expect(foldDelta(current, delta([entry(2)], 6, { generation: 3 })).kind).toBe("reset");
    expect(foldDelta(undefined, delta([entry(2)], 6)).kind).toBe("reset");
  });

  it("when nothing is cached, then the stream starts without a cursor", () => {
    expect(resumeCursor(undefined)).toBeUndefined();
  });
});

describe("reconnectDelayMs", () => {
  it("doubles from 0.5 s up to 8 s and jitters downwards by at most half", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => reconnectDelayMs(n, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(reconnectDelayMs(0, () => 0)).toBe(250);
    expect(reconnectDelayMs(6, () => 0)).toBe(4000);
  });
});

describe("mergeEntries on whole pages", () => {
  /** The entry-by-entry upsert, as reference for the linear page merge. */
  function reference(stored: readonly Entry[], incoming: readonly Entry[]): Entry[] {
    const list = [...stored];
    for (const entry of incoming) {
      const at = list.findIndex((probe) => probe.start_sequence >= entry.start_sequence);
      const index = at === -1 ? list.length : at;
      const existing = list[index];
      if (existing?.start_sequence === entry.start_sequence) {
        if (entry.sequence >= existing.sequence) list[index] = entry;
      } else list.splice(index, 0, entry);
    }
    return list;
  }
  const at = (start: number, sequence: number): Entry => ({
    start_sequence: start,
    sequence,
    message: { id: `m-${start}-${sequence}`, role: "assistant", parts: [] },
  });

  it("gives the same list as upserting entry by entry, and keeps the list when nothing changes", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 200; round += 1) {
      const stored = [...new Set(Array.from({ length: random(60) }, () => random(200)))]
        .sort((a, b) => a - b)
        .map((start) => at(start, start + random(5)));
      const incoming = Array.from({ length: 9 + random(40) }, () => random(200))
        .sort((a, b) => a - b)
        .map((start) => at(start, start + random(5)));
      expect(mergeEntries(stored, incoming)).toEqual(reference(stored, incoming));
    }
    const stored = Array.from({ length: 20 }, (_, index) => at(index, index + 3));
    const stale = stored.map((entry) => at(entry.start_sequence, entry.sequence - 1));
    expect(mergeEntries(stored, stale)).toBe(stored);
  });
});

describe("foldAppend", () => {
  const grow = (sequence: number, offset: number, text: string, cursor?: number) => ({
    start_sequence: 2,
    sequence,
    part: 0,
    offset,
    text,
    ...(cursor === undefined ? {} : { cursor }),
  });

  it("when the held text is as long as the offset, then only that entry is new and the others are kept by reference", () => {
    const stored = data([entry(1), entry(2, 2, "ab"), entry(3)], 3);
    const result = foldAppend(stored, grow(4, 2, "cd", 4));
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(result.data.cursor).toBe(4);
    expect(result.data.entries[1]).toMatchObject({ sequence: 4 });
    expect(result.data.entries[1]?.message.parts[0]).toMatchObject({ text: "abcd", id: "p" });
    expect(result.data.entries[0]).toBe(stored.entries[0]);
    expect(result.data.entries[2]).toBe(stored.entries[2]);
    expect(stored.entries[1]?.message.parts[0]).toMatchObject({ text: "ab" });
  });

  it("when the entry already has that sequence, then nothing changes; when it does not fit, a gap; with no cache, a reset", () => {
    const stored = data([entry(2, 5, "ab")], 5);
    expect(foldAppend(stored, grow(5, 2, "cd"))).toEqual({ kind: "ok", data: stored });
    expect(foldAppend(stored, grow(6, 1, "cd")).kind).toBe("gap");
    expect(foldAppend(data([entry(1)], 1), grow(6, 2, "cd")).kind).toBe("gap");
    expect(foldAppend(undefined, grow(6, 2, "cd")).kind).toBe("reset");
  });
});
