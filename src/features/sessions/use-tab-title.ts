import { useEffect } from "react";

/** Keeps the document's title; the previous one comes back when the page leaves. */
export function useTabTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
