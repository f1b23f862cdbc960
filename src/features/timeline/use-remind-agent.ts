// Remind the agent: puts a prompt listing the chosen items in the composer and moves focus
// there. Nothing is sent: the person reads, edits and presses Send, and the prompt is then
// recorded like any other. A draft already typed is kept, the reminder goes after it.
import { useCallback } from "react";
import type { AuditItem } from "../../audit/types";
import { COMPOSER_INPUT_ID } from "../../lib/focus-request";
import { reminderPrompt } from "./compaction-audit-view";
import { useDraftActions, useDraftOf } from "./draft-store";

export function useRemindAgent(sessionId: string) {
  const { draftEdited } = useDraftActions();
  const draftOf = useDraftOf();
  return useCallback(
    (items: readonly AuditItem[]) => {
      if (items.length === 0) return;
      const reminder = reminderPrompt(items);
      const draft = draftOf(sessionId);
      draftEdited(sessionId, draft.trim() === "" ? reminder : `${draft.trimEnd()}\n\n${reminder}`);
      const input = document.getElementById(COMPOSER_INPUT_ID);
      if (input instanceof HTMLTextAreaElement) {
        input.focus();
        // The caret after the reminder, where the person goes on writing.
        requestAnimationFrame(() =>
          input.setSelectionRange(input.value.length, input.value.length),
        );
      }
    },
    [sessionId, draftEdited, draftOf],
  );
}
