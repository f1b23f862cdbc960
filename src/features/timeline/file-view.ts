import type { FilePart } from "../../contract/transcript";

/** The file's own name, else the last path segment of its address, else "Attached file". */
export function fileLabel(part: Pick<FilePart, "filename" | "url">): string {
  const name = part.filename?.trim();
  if (name) return name;
  const tail = part.url.split(/[/:]/).filter(Boolean).at(-1);
  return tail && !part.url.startsWith("data:") ? tail : "Attached file";
}
