// Untrusted Markdown may only link out over http(s) or to mail: `javascript:`, `data:`,
// `vbscript:`, relative and protocol-relative URLs all become "no link".
const ALLOWED = /^(https?:\/\/|mailto:)/i;

export function safeUrl(url: string): string {
  const trimmed = url.trim();
  return ALLOWED.test(trimmed) ? trimmed : "";
}
