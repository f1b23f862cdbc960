/**
 * A ref callback that focuses its element as it is attached. React's `autoFocus` did this for
 * an element that appears after the page has loaded; Preact leaves `autofocus` to the
 * browser, which honours it only at load (ADR 0215). One function for the whole app, so the
 * ref never changes and runs once per element.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
