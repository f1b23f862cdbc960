// Where keyboard focus should go once the next screen has rendered. An action that
// navigates (New session) leaves its button behind on a page that is about to change;
// the screen that handles the request takes it once, when it mounts.
// A session picked in the sidebar asks for its heading: the link it was on may be replaced.
export type FocusTarget = "composer" | "session-heading";

let pending: FocusTarget | undefined;

export function requestFocus(target: FocusTarget): void {
  pending = target;
}

/** True once for a pending request for `target`, which it then clears. */
export function takeFocusRequest(target: FocusTarget): boolean {
  if (pending !== target) return false;
  pending = undefined;
  return true;
}

/** The message box's id: the skip link and the focus requests point at it. */
export const COMPOSER_INPUT_ID = "tideline-message";
